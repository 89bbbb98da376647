"""Analysis across the modules of one run.

Linting a file also records (jaxlint.engine.call_records) plain records that are a pure
function of the file's source, so they can be cached with its findings:

* calls its traced code makes, with traced arguments, into imported functions
  (``from .utils import helper``; ``utils.helper(x)``), and into members of instances of
  imported classes (``robot.step(x)``, a property, ``super().method()``, a member inherited
  from an imported base), with the receiver traced or static;
* the imported classes its traced parameters are instances of;
* its host calls of imported functions (or of what they return), and the wrappers and
  factories of jitted functions with static parameters it provides.

After every file is linted, each record whose target is a module of the same run is
followed: the target function or member is interpreted with those arguments, and what it does
wrong is reported in the target's file, naming the traced entry point and its file; a module
using classes of the run is interpreted again knowing them; host calls are checked against
what the callee's module provides (JAX202).  Nothing here depends on how the files were
split between processes, so ``-j 2`` gives the output of ``-j 1``.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

import libcst as cst

from jaxlint.analysis.traced.frame import Frame
from jaxlint.analysis.jax.jax_api import KNOWN_APIS
from jaxlint.analysis.model.classes import decorator_names, is_classmethod, is_property
from jaxlint.analysis.traced.values import OPAQUE, STATIC, TRACED, Val
from jaxlint.analysis.model.transforms import FnRef
from jaxlint import noqa, selection
from jaxlint.config import Config, SourcePath
from jaxlint.engine.cache import Cache, content_digest, finding_from_json, finding_to_json
from jaxlint.engine.call_records import call_recorder
from jaxlint.engine.collection import one_collection_per_module
from jaxlint.engine.module_analysis import ModuleAnalysis
from jaxlint.engine.pipeline import meta_finding
from jaxlint.analysis.xmod.summaries import ClassSummary, ModuleSummary, summarise, summary_from_json, summary_to_json
from jaxlint.noqa import suppress as apply_noqa
from jaxlint.engine.reporting import Reports, materialise, rule_handlers
from jaxlint.engine.source import decode_source, parse_module
from jaxlint.findings import Finding
from jaxlint.rules import rules_for

MAX_ROUNDS = 3


def module_name(path: str, folders: Optional[Dict[str, Tuple[str, ...]]] = None) -> str:
    """Dotted module name of a file, from the packages (folders with __init__.py) around it.
    ``folders``: what is known of folders already (folder -> its dotted parts), for naming many
    files of the same packages without looking for their ``__init__.py`` files again."""
    d, fn = os.path.split(os.path.abspath(path))
    base = os.path.splitext(fn)[0]
    parts = _package_parts(d, {} if folders is None else folders)
    return ".".join(parts if base == "__init__" else parts + (base,))


def _package_parts(d: str, folders: Dict[str, Tuple[str, ...]]) -> Tuple[str, ...]:
    parts = folders.get(d)
    if parts is None:
        parts = ()
        if os.path.isfile(os.path.join(d, "__init__.py")):
            parent, pkg = os.path.split(d)
            parts = _package_parts(parent, folders) + (pkg,) if pkg else (pkg,)
        folders[d] = parts
    return parts


def absolute(target: str, importer_module: str, importer_is_package: bool) -> str:
    """Resolve a relative qualified name (``..utils.f``) against the importing module."""
    if not target.startswith("."):
        return target
    level = len(target) - len(target.lstrip("."))
    rest = target[level:]
    pkg = importer_module if importer_is_package else importer_module.rpartition(".")[0]
    for _ in range(level - 1):
        pkg = pkg.rpartition(".")[0]
    return f"{pkg}.{rest}" if pkg else rest


class _RemoteTransform:
    statics = in_axes = filtered = opaque_attrs = refs = False
    runs_per_call = False  # not known across files: effects keep their findings

    def __init__(self, label: str, cached: bool, effects: bool, differentiated: bool):
        self.label = label
        self.cached = cached
        self.effects = effects
        self.differentiated = differentiated


class _RemoteFunc:
    def __init__(self, qualname: str):
        self.node = None
        self.qualname = qualname
        self.name = qualname


class _RemoteEntry:
    """Stands for the traced entry point that lives in another file."""

    def __init__(self, rec: dict, where: str, path: str):
        self.transform = _RemoteTransform(rec["label"], rec["cached"], rec["effects"], rec.get("differentiated", False))
        self.func = _RemoteFunc(where)
        self.bound_self = False
        self.origin = (rec["entry"], path)


class _Target:
    """One module of the run, parsed on demand for cross-module analysis."""

    def __init__(self, path: str, display: str, module: cst.Module, text: str, config: Config, rules):
        self.path = path
        self.config = config
        self.display = display
        self.reports = Reports()
        self.calls: list = []
        self.silenced: List[tuple] = []  # (path, line, code) of findings a `# noqa` silenced
        self.errors: List[Finding] = []  # JAX002: what following a record here raised
        self.enabled = {r.code for r in rules}
        self.rules, handlers = rule_handlers(rules)
        self._forwards = None  # StaticPaths.forwards of the module, once asked for
        self.analysis = ModuleAnalysis(module, text, config, handlers, self.reports, call_recorder(display, self.calls))
        self.index = self.analysis.index
        self.finder = self.analysis.finder
        self.analyzer = self.analysis.analyzer

    def function(self, name: str):
        scope = self.index.module_scope
        f = scope.defs.get(name)
        if f is not None:
            return FnRef(f), None
        app = self.finder.aliases.get((id(scope), name))
        if app is not None:
            r = FnRef(app.func)
            r.bound_self = app.bound_self
            return r, None
        q = scope.imports.get(name)
        return None, q  # maybe re-exported from another module

    def _report_paths(self, paths) -> None:
        rule = next((r for r in self.rules if r.code == "JAX202"), None)
        if rule is not None and paths:
            self.analysis.__dict__["static_paths"] = paths  # the rule reports these paths, and only these
            rule.check_module(self.analysis)

    def host_paths(self, lookup) -> list:
        """JAX202 at the module's host calls whose callee, a factory of another module
        (``lookup``: see StaticPaths.imported), puts the value in a static slot.  Returns the
        paths that end in a wrapper of another module, as (StaticPath, text saying where the
        value is built)."""
        # imported when a rule first asks for the fact, not at start-up
        from jaxlint.analysis.facts.static_paths import RemoteSlot, StaticPaths

        if not any(r.code == "JAX202" for r in self.rules):
            return []
        a = self.analysis
        paths = StaticPaths(a.index, a.finder, a.analyzer, a.host_values).imported(lookup)
        self._report_paths([p for p in paths if not isinstance(p.node, RemoteSlot)])
        remote = []
        for p in paths:
            if isinstance(p.node, RemoteSlot):
                where = a.positions.get(p.built) if p.built is not None else None
                built = f" (built at line {where.start.line} of {self.display})" if where is not None else f" (passed in {self.display})"
                remote.append((p, built))
        return remote

    def wrapper_path(self, path, built: str) -> None:
        """Report, at the static slot inside this module's wrapper, a value of another module
        that reaches it (``path.node``: the RemoteSlot naming the wrapper and parameter)."""
        # imported when a rule first asks for the fact, not at start-up
        from jaxlint.analysis.facts.static_paths import StaticPath, StaticPaths

        if self._forwards is None:
            a = self.analysis
            sp = StaticPaths(a.index, a.finder, a.analyzer, a.host_values)
            sp.run()
            self._forwards = sp.forwards
        slot = path.node
        f = self.index.module_scope.defs.get(slot.export["name"])
        if f is None:
            return
        for param, func, pname, node in self._forwards.get(id(f.node), ()):
            if param == slot.param and pname == slot.pname and isinstance(node, cst.CSTNode):
                what = path.what + built
                self._report_paths([StaticPath(node, what, pname, func, None, f" through {f.name}()", path.kind)])

    def reinterpret(self, foreign: dict, delegates: dict) -> None:
        """Interpret the module's traced code again, knowing the classes of other modules its
        traced parameters are instances of (``foreign``: by the name the module imports them
        with; ``delegates``: their modules' class models).  What their methods do wrong is
        reported in their own files by the records; here only this module's findings count
        (reports at nodes of other modules have no position here and are dropped)."""
        an = self.analyzer
        an.foreign = foreign
        an.classes.delegates = delegates
        external, an.external = an.external, None
        try:
            an.run()
        finally:
            an.external = external

    def cls(self, name: str):
        """(the class ``name`` of the module, None) or (None, the import it may be re-exported from)."""
        scope = self.index.module_scope
        c = scope.classes.get(name)
        if c is not None:
            return c, None
        return None, scope.imports.get(name)

    def follow_member(self, rec: dict, cls, f, importer: str, pytree: bool) -> None:
        """``obj.member(...)`` of a record, on an instance of ``cls`` (a class of this module
        whose MRO has ``f``): ``f`` interpreted with the receiver the record describes.
        ``pytree``: the receiver's class is a pytree the class model can place."""
        decorators = decorator_names(f.node, f.scope) if not f.is_lambda else set()
        if rec.get("attribute") and not is_property(f):
            return  # a method read, not called, or a field: nothing runs here
        if not f.is_method and "staticmethod" not in decorators:
            return
        kind, flags = rec["self"]
        if is_classmethod(f):
            self_val = Val(STATIC, None, 0, cls=cls)
        elif kind == TRACED:
            if not pytree:
                # A traced instance of a class the model cannot place as a pytree: what it is
                # inside the trace (its fields, whether a write to it persists) is not known.
                return
            # A traced receiver is a pytree of its class: the class model says which fields are
            # leaves; where it cannot tell, the fields stay unknown.
            self_val = Val(TRACED, None, flags | OPAQUE, cls=cls)
        elif kind == STATIC:
            self_val = Val(STATIC, None, 0, cls=cls)
        else:
            return
        ref = FnRef(f)
        ref.bound_self = "staticmethod" not in decorators
        self.follow(rec, ref, importer, self_val if ref.bound_self else None)

    def follow(self, rec: dict, ref: FnRef, importer: str, self_val: Optional[Val] = None) -> None:
        path = rec.get("entry_path", importer)
        where = f"{rec['entry']} in {path}"
        entry = _RemoteEntry(rec, where, path)
        frame = Frame(ref.func, ref.func.scope, where, entry, rec["cached"])
        frame.entry_name = where
        frame.staged = rec.get("staged", True)
        argvals = []
        for k, f in rec["args"]:
            argvals.append((cst.Arg(value=cst.Name("_")), Val(k, None, f)))
        for kw, (k, f) in sorted(rec["kwargs"].items()):
            argvals.append((cst.Arg(value=cst.Name("_"), keyword=cst.Name(kw)), Val(k, None, f)))
        self.analyzer.call_function(frame, None, (ref, None, [], {}), argvals, self_val)

    def internal_error(self, error: Exception) -> None:
        """Following a record into this module raised: one JAX002 for the module, and the run
        goes on (one module's bug must never stop a run)."""
        if not self.errors:
            self.errors = meta_finding(self.display, "JAX002", f"{type(error).__name__}: {error}", 1, 1, self.enabled)

    def findings(self, config: Config, facts: bool = False) -> List[Finding]:
        if not self.reports.pending:
            return list(self.errors)
        a = self.analysis
        out = materialise(a.module, self.display, self.reports.pending, a.positions, a if facts else None)
        ignored = config.ignored_for(SourcePath(self.path, self.display))
        if ignored:
            out = [f for f in out if not selection.any_matches(f.code, ignored)]
        kept = apply_noqa(out, self.analysis.text)
        if len(kept) != len(out):
            kept_set = set(kept)
            self.silenced.extend((f.path, f.line, f.code) for f in out if f not in kept_set)
        return kept + self.errors


def cross_module_findings(
    files: Sequence[Tuple[str, str]],
    calls_by_display: Dict[str, list],
    existing: Sequence[Finding],
    config: Config,
    rules,
    cache=None,
    silenced_out: Optional[list] = None,
    config_for=None,
    facts: bool = False,
    given_summaries: Optional[Dict[str, ModuleSummary]] = None,
    jobs: int = 1,
    sources: Optional[Mapping[str, bytes]] = None,
    known_digests: Optional[Mapping[str, str]] = None,
) -> List[Finding]:
    """Findings inside imported helpers of the run's modules, reached with traced arguments.

    ``files``: (path, display) of every linted file; ``calls_by_display``: the records each
    file's lint produced.  Findings already in ``existing`` (same place, same code) are not
    repeated.  ``silenced_out``: filled with (path, line, code) of the findings a ``# noqa``
    silenced (they make the comment a used one).  ``facts``: derive the findings' facts (for
    the dynamic mode).  ``given_summaries``: the summaries the per-file pass made (by path),
    which spare the lookups a parse of those modules.  ``jobs``: processes that may follow
    the records (the output does not depend on it).  ``sources``: contents to read instead of
    what the files hold, by path.  ``known_digests``: the content digests the per-file pass
    knows (by path), which spare reading those files again."""
    if not any(calls_by_display.values()):
        return []
    by_module: Dict[str, Tuple[str, str]] = {}
    info: Dict[str, Tuple[str, bool]] = {}
    folders: Dict[str, Tuple[str, ...]] = {}  # for module_name, over the whole run

    def name_of(path: str) -> str:
        return module_name(path, folders)

    for path, display in files:
        if path == "-":
            continue
        name = name_of(path)
        if name:
            by_module.setdefault(name, (path, display))
        info[display] = (name, os.path.basename(path) == "__init__.py")
    targets: Dict[str, Optional[_Target]] = {}

    def read(path: str) -> bytes:
        if sources is not None and path in sources:
            return sources[path]
        with open(path, "rb") as fh:
            return fh.read()

    def load(modname: str) -> Optional[_Target]:
        loc = by_module.get(modname)
        if loc is None:
            return None
        path, display = loc
        try:
            data = read(path)
            digests[path] = group_deps[path] = content_digest(data)
            text = decode_source(data)
            tconfig, trules = config, rules
            if config_for is not None:
                tconfig = config_for(path)
                trules = rules_for(tconfig)
            return _Target(path, display, parse_module(text), text, tconfig, trules)
        except Exception:  # noqa: BLE001 - a file that fails here was already reported
            return None

    def target(modname: str) -> Optional[_Target]:
        """The module parsed and analysed, kept until the group's findings are harvested."""
        if modname not in targets:
            targets[modname] = load(modname)
        return targets[modname]

    summaries: Dict[str, Optional[ModuleSummary]] = {}  # for the whole run: plain data
    grouping: List[str] = []  # the module whose records are being grouped, while they are
    # While a group's records are sorted by module: the first other module read for it (most
    # records of a group lead into one module), kept for its part.
    first_read: Dict[str, _Target] = {}

    def summary(modname: str) -> Optional[ModuleSummary]:
        """What a lookup passing through the module reads.  While a group's records are
        sorted by module, the trees read for it are dropped at once, but the group's own
        module's and the first other one's, which the records usually reach; while they are
        followed, a tree read is kept with the part's other trees (the lookups there read the
        modules then interpreted)."""
        if modname not in summaries:
            summaries[modname] = summary_of(modname)
        s = summaries[modname]
        if s is not None and s.digest is not None:
            group_deps[s.path] = s.digest
        return s

    def summary_of(modname: str) -> Optional[ModuleSummary]:
        loc = by_module.get(modname)
        if loc is None:
            return None
        path = loc[0]
        given = given_summaries.get(path) if given_summaries else None
        if given is not None:
            # the contents the summary was made from are the ones the cache entries depend on
            digests.setdefault(path, given.digest)
            if cache is not None and given.digest is not None:
                cache.put_json(cache.key(given.digest, "<summary> " + path), summary_to_json(given))
            return given
        skey = None
        if cache is not None:
            digest = digest_of(path)
            if digest is not None:
                skey = cache.key(digest, "<summary> " + path)
                hit = cache.get_json(skey)
                if hit is not None:
                    try:
                        return summary_from_json(hit, path, digest)
                    except (KeyError, TypeError, ValueError, AttributeError):
                        pass  # a malformed entry: read the module and rewrite it
        temporary = modname not in targets and bool(grouping) and grouping[0] != modname
        t = load(modname) if temporary else target(modname)
        if t is None:
            return None
        s = summarise(t.analysis, t.path, digests.get(t.path))
        if temporary and not first_read:
            first_read[modname] = t
        elif temporary:
            del t
            paused.collect()  # the analysis' cycles hold the tree: free it now
        if skey is not None:
            cache.put_json(skey, summary_to_json(s))
        return s

    def locate(qual: str, hops: int = 0) -> Optional[Tuple[str, str]]:
        """(module, name) of the function ``qual``, following re-exports."""
        mod, _, name = qual.rpartition(".")
        s = summary(mod) if mod else None
        if s is None:
            return None
        if name in s.functions:
            return mod, name
        reexport = s.imports.get(name)
        if reexport is not None and hops < 3:
            return locate(absolute(reexport, name_of(s.path), os.path.basename(s.path) == "__init__.py"), hops + 1)
        return None

    def resolve(qual: str):
        found = locate(qual)
        t = target(found[0]) if found is not None else None
        if t is None:
            return None, None
        return t, t.function(found[1])[0]

    def locate_class(qual: str, hops: int = 0) -> Optional[Tuple[str, str, ClassSummary]]:
        """(module, name, summary) of the class ``qual``, following re-exports."""
        mod, _, name = qual.rpartition(".")
        s = summary(mod) if mod and not qual.startswith(KNOWN_APIS) else None
        if s is None or hops > 3:
            return None
        cls = s.classes.get(name)
        if cls is not None:
            return mod, name, cls
        reexport = s.imports.get(name)
        if reexport is None:
            return None
        return locate_class(absolute(reexport, name_of(s.path), os.path.basename(s.path) == "__init__.py"), hops + 1)

    def resolve_class(qual: str):
        """(target, class) for the class ``qual``, following re-exports."""
        found = locate_class(qual)
        t = target(found[0]) if found is not None else None
        if t is None:
            return None, None
        return t, t.cls(found[1])[0]

    def is_pytree(qual: str, hops: int = 0) -> bool:
        """Whether the class ``qual`` is a pytree the class model places, also through a base
        class in another module of the run."""
        found = locate_class(qual)
        if found is None or hops > 3:
            return False
        mod, _, cls = found
        if cls.pytree:
            return True
        if cls.imported_base is None:
            return False
        path = by_module[mod][0]
        return is_pytree(absolute(cls.imported_base, name_of(path), os.path.basename(path) == "__init__.py"), hops + 1)

    def locate_member(qual: str, member: str, hops: int = 0) -> Optional[Tuple[str, str]]:
        """(module, class name) of the class, ``qual`` or one of its bases, also those in other
        modules of the run, whose MRO in its module has ``member``."""
        mod, _, name = qual.rpartition(".")
        s = summary(mod) if mod else None
        if s is None or hops > 3:
            return None
        modname, is_pkg = name_of(s.path), os.path.basename(s.path) == "__init__.py"
        cls = s.classes.get(name)
        if cls is None:
            reexport = s.imports.get(name)
            if reexport is None:
                return None
            return locate_member(absolute(reexport, modname, is_pkg), member, hops + 1)
        if member in cls.members:
            return mod, name
        if cls.imported_base is None:
            return None
        return locate_member(absolute(cls.imported_base, modname, is_pkg), member, hops + 1)

    def resolve_member(qual: str, member: str):
        """(target, class, function) for ``member`` of the class ``qual``, looked up along its
        bases, also those in other modules of the run."""
        found = locate_member(qual, member)
        t = target(found[0]) if found is not None else None
        if t is None:
            return None, None, None
        cls = t.cls(found[1])[0]
        return t, cls, t.analyzer.classes.member(cls, member)

    def home(qual: str, rec: dict) -> Optional[str]:
        """The module whose tree following the call record ``rec`` interprets."""
        found = locate_member(qual, rec["member"]) if "member" in rec else locate(qual)
        return found[0] if found is not None else None

    # What each module provides to host code elsewhere: its wrappers and factories of jitted
    # functions with static parameters, by (module, name).
    exports: Dict[Tuple[str, str], dict] = {}
    for display, recs in sorted(calls_by_display.items()):
        for rec in recs:
            if "provides" in rec and display in info:
                exports.setdefault((info[display][0], rec["name"]), dict(rec, path=display, module=info[display][0]))

    # qualified name -> (what it resolves to, the modules read to know it: path -> digest)
    resolved_exports: Dict[str, Tuple[Optional[dict], Dict[str, str]]] = {}

    def resolve_export(qual: str, hops: int = 0, read: Optional[Dict[str, str]] = None) -> Optional[dict]:
        if hops == 0 and qual in resolved_exports:
            found, known_from = resolved_exports[qual]
            group_deps.update(known_from)
            return found
        read = {} if read is None else read
        mod, _, name = qual.rpartition(".")
        found = exports.get((mod, name))
        if found is None and hops < 3 and mod in by_module and not qual.startswith(KNOWN_APIS):
            path = by_module[mod][0]
            if os.path.basename(path) == "__init__.py":
                # a package re-exporting the function: ``from .utils import wrap``
                package = summary(mod)
                if path in digests:
                    read[path] = digests[path]
                reexport = package.imports.get(name) if package is not None else None
                if reexport is not None:
                    found = resolve_export(absolute(reexport, mod, True), hops + 1, read)
        if hops == 0:
            resolved_exports[qual] = (found, read)
            group_deps.update(read)
        return found

    work = [(display, rec) for display, recs in sorted(calls_by_display.items()) for rec in recs if "provides" not in rec]
    # Incremental by dependency: the work on one target module (its records of one round) is
    # cached on its own, keyed by those records and what the run knows of every module (names,
    # and what each provides to host code), and checked on a hit against the contents of the
    # modules that work read.  An edit re-runs only the work that read the edited module.
    run_digest = ""
    if cache is not None:
        blob = json.dumps([sorted(info.items()), sorted(by_module.items()), sorted((list(k), v) for k, v in exports.items())], sort_keys=True, separators=(",", ":"))
        run_digest = hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()
    digests: Dict[str, Optional[str]] = dict(known_digests or {})  # path -> content digest, read once per run
    group_deps: Dict[str, str] = {}  # path -> digest of the modules the current group read

    def digest_of(path: str) -> Optional[str]:
        if path not in digests:
            try:
                digests[path] = content_digest(read(path))
            except OSError:
                digests[path] = None
        return digests[path]

    have = {(f.path, f.line, f.column, f.code) for f in existing}
    out: List[Finding] = []
    silenced: List[tuple] = []

    def harvest(keep=()) -> Tuple[List[Finding], List[tuple]]:
        # Findings of the modules read, then their parsed trees go (but those of ``keep``, the
        # modules the next parts interpret): memory stays at one part's worth.
        found: List[Finding] = []
        quiet: List[tuple] = []
        released = False
        for modname, t in list(targets.items()):
            if modname in keep:
                continue
            del targets[modname]
            if t is None:
                continue
            released = True
            found.extend(t.findings(t.config, facts))
            quiet.extend(t.silenced)
        t = None
        if not released:
            # Most parts read no module (their records lead nowhere): nothing to free, and a
            # collection here would scan the young objects of the whole run again.
            return found, quiet
        # A tree that lived through a collection (kept for the next part, or while a lookup's
        # tree was freed) is in the older generation.  Collect that one too, but only when no
        # tree is kept: a kept tree would be promoted past it and then outlive its release.
        paused.collect(0 if any(targets.get(m) is not None for m in keep) else 1)
        return found, quiet

    def keep(found: List[Finding], quiet: List[tuple]) -> None:
        for f in found:
            if (f.path, f.line, f.column, f.code) not in have:
                have.add((f.path, f.line, f.column, f.code))
                out.append(f)
        silenced.extend(quiet)

    def group_key(module: str, group: list) -> str:
        recs = [[qual, importer, info.get(importer), rec] for qual, importer, rec in group]
        blob = json.dumps([run_digest, module, recs, sorted(set(uses.get(module, ())))], sort_keys=True, separators=(",", ":"))
        return cache.key(hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest(), "<cross-module>")

    def follow_one(module: str, group: list) -> tuple:
        """(findings, silenced, records made, modules read: [path, digest]) of following one
        round's records that lead into ``module``."""
        group_deps.clear()
        grouping.append(module)
        try:
            parts = _by_home(group, module, home)
        finally:
            grouping.clear()
        homes = [where for where, _ in parts]
        for modname, t in first_read.items():
            if modname in homes:
                targets[modname] = t
        first_read.clear()
        t = None
        found, quiet = harvest(keep=set(homes))  # what the lookups read, unless followed
        produced = []
        for i, (where, part) in enumerate(parts):
            produced.extend(_follow_group(module, part, uses, info, target, resolve, resolve_class, resolve_member, is_pytree, resolve_export))
            part_found, part_quiet = harvest(keep=set(homes[i + 1 :]))
            found.extend(part_found)
            quiet.extend(part_quiet)
        return found, quiet, produced, sorted([p, d] for p, d in group_deps.items())

    done = set()
    uses: Dict[str, List[str]] = {}
    # Each target module's tree goes at the next harvest: collect then, not while it is read.
    with one_collection_per_module() as paused:
        for _ in range(MAX_ROUNDS):
            next_work = []
            items = []
            uses.clear()
            for importer, rec in work:
                modname, is_pkg = info.get(importer, ("", False))
                if "uses" in rec:
                    if not uses.get(modname):
                        items.append((modname, modname, importer, rec))
                    uses.setdefault(modname, []).append(rec["uses"])
                    continue
                if "host" in rec:
                    # checked in the importer's own tree, against what the callee's module provides
                    items.append((modname, absolute(rec["host"], modname, is_pkg), importer, rec))
                    continue
                qual = absolute(rec["target"], modname, is_pkg)
                items.append((qual.rpartition(".")[0], qual, importer, rec))
            items.sort(key=lambda it: it[0])  # one target module after the other: one tree in memory
            groups: Dict[str, list] = {}
            for module, qual, importer, rec in items:
                # a module's host calls, and the classes it uses: each handled once for the module
                key = ("host", module) if "host" in rec else ("uses", module) if "uses" in rec else (qual, repr(rec))
                if key in done:
                    continue
                done.add(key)
                groups.setdefault(module, []).append((qual, importer, rec))
            # Each group is followed on its own (its trees go when it is done; lookups read
            # plain summaries), so the groups a cache does not answer can be followed in any
            # process; their results are taken in the groups' order, as one process would.
            results: List[Optional[tuple]] = []
            todo: List[Tuple[int, str, list]] = []
            keys: List[Optional[str]] = []
            for module, group in groups.items():
                gkey = group_key(module, group) if cache is not None else None
                keys.append(gkey)
                if gkey is not None:
                    hit = cache.get_json(gkey)
                    if hit is not None and all(digest_of(p) == d for p, d in hit.get("deps", [])):
                        found = [finding_from_json(d) for d in hit["findings"]]
                        results.append((found, [tuple(x) for x in hit.get("silenced", [])], [(d, r) for d, r in hit.get("next", [])], None))
                        continue
                results.append(None)
                todo.append((len(results) - 1, module, group))
            for i, result in _follow_groups(follow_one, todo, jobs):
                results[i] = result
            for gkey, (found, quiet, produced, deps) in zip(keys, results):
                keep(found, quiet)
                next_work.extend(produced)
                if gkey is not None and deps is not None:
                    cache.put_json(
                        gkey,
                        {
                            "deps": deps,
                            "findings": [finding_to_json(f) for f in found],
                            "silenced": sorted(set(quiet)),
                            "next": produced,
                        },
                    )
            if not next_work:
                break
            work = next_work
    out.sort(key=Finding.sort_key)
    if silenced_out is not None:
        silenced_out.extend(silenced)
    return out


# Below this many groups to follow in a round, they are followed in this process.
POOL_MIN_GROUPS = 8

# Set in the parent just before a fork: (follow_one, todo) for the pool's workers.
_FORKED_GROUPS: Optional[tuple] = None


def _follow_at(i: int):
    follow_one, todo = _FORKED_GROUPS
    _, module, group = todo[i]
    return follow_one(module, group)


def _follow_groups(follow_one, todo: List[Tuple[int, str, list]], jobs: int):
    """(index, result) of ``follow_one(module, group)`` for each of ``todo``: in worker
    processes forked from this one (which share the run's summaries without copying them) when
    there are enough groups, else here."""
    global _FORKED_GROUPS
    from jaxlint.engine.runner import pool_context

    ctx = pool_context() if jobs > 1 and len(todo) >= POOL_MIN_GROUPS else None
    if ctx is None or ctx.get_start_method() != "fork":
        for i, module, group in todo:
            yield i, follow_one(module, group)
        return
    _FORKED_GROUPS = (follow_one, todo)
    try:
        with ctx.Pool(min(jobs, len(todo))) as pool:
            for (i, _, _), result in zip(todo, pool.imap(_follow_at, range(len(todo)))):
                yield i, result
    finally:
        _FORKED_GROUPS = None


def _by_home(group: list, module: str, home) -> List[Tuple[str, list]]:
    """The records of a group in parts, (module, records) for each module whose tree following
    them interprets (``home(qual, rec)``; the host calls and the classes a module uses are
    followed in the module itself): the group's own module first, then the others in the
    order they first appear.  Each part's trees can go before the next part is followed."""
    parts: Dict[str, list] = {module: []}
    for qual, importer, rec in group:
        where = module if "uses" in rec or "host" in rec else home(qual, rec) or module
        parts.setdefault(where, []).append((qual, importer, rec))
    return [(where, part) for where, part in parts.items() if part]


def _follow_group(module, group, uses, info, target, resolve, resolve_class, resolve_member, is_pytree, resolve_export) -> list:
    """Follow the records of one round that lead into ``module``; returns the records the
    followed code makes in turn, as (display, record)."""
    next_work = []
    for qual, importer, rec in group:
        if "uses" in rec:
            is_pkg = info.get(importer, ("", False))[1]
            foreign, delegates = {}, {}
            for q in sorted(set(uses.get(module, ()))):
                tq, cls = resolve_class(absolute(q, module, is_pkg))
                if cls is not None:
                    foreign[q] = cls
                    delegates[id(tq.index.module_scope)] = tq.analyzer.classes
            t = target(module) if foreign and module else None
            if t is not None:
                try:
                    t.reinterpret(foreign, delegates)
                except RecursionError:
                    pass
                except Exception as e:  # noqa: BLE001 - one module's bug must never stop a run
                    t.internal_error(e)
            continue
        if "host" in rec:
            if not module or resolve_export(qual) is None:
                continue
            t = target(module)
            if t is None:
                continue
            is_pkg = info.get(importer, ("", False))[1]

            def lookup(q, returned, module=module, is_pkg=is_pkg):
                found = resolve_export(absolute(q, module, is_pkg))
                if found is None or (found["provides"] == "factory") != returned:
                    return None
                return found

            try:
                for path, built in t.host_paths(lookup):
                    w = target(path.node.export["module"])
                    if w is not None:
                        w.wrapper_path(path, built)
            except Exception as e:  # noqa: BLE001 - one module's bug must never stop a run
                t.internal_error(e)
            continue
        if "member" in rec:
            t, cls, f = resolve_member(qual, rec["member"])
        else:
            (t, ref), cls = resolve(qual), None
        if t is None:
            continue
        before = len(t.calls)
        try:
            if cls is not None:
                t.follow_member(rec, cls, f, importer, rec["self"][0] != TRACED or is_pytree(qual))
            else:
                t.follow(rec, ref, importer)
        except RecursionError:
            continue
        except Exception as e:  # noqa: BLE001 - one module's bug must never stop a run
            t.internal_error(e)
            continue
        for r in t.calls[before:]:
            next_work.append((t.display, r))
    return next_work


def cross_module_phase(
    files: Sequence[Tuple[str, str]],
    calls_by_display: Dict[str, list],
    findings: List[Finding],
    config_for,
    cache_dir: Optional[str] = None,
    facts: bool = False,
    summaries: Optional[Dict[str, ModuleSummary]] = None,
    jobs: int = 1,
    sources: Optional[Mapping[str, bytes]] = None,
    digests: Optional[Mapping[str, str]] = None,
) -> List[Finding]:
    """``findings`` plus those of :func:`cross_module_findings`, for a run whose files each have
    their own configuration (``config_for(path)``); ``summaries``: of the modules the per-file
    pass analysed, by path; ``sources``: contents to read instead of what the files hold.  A
    JAX004 (unused ``noqa``) made by the per-file pass is withdrawn when this phase found a
    finding that the comment silences."""
    first = config_for(files[0][0]) if files else Config()
    rules = rules_for(first)
    xcache = None
    if cache_dir:
        key = "|".join(sorted({config_for(p).key() for p, _ in files}))
        xcache = Cache(cache_dir, key, tuple(r.code for r in rules), facts)
    silenced: list = []
    found = cross_module_findings(
        files, calls_by_display, findings, first, rules, xcache, silenced_out=silenced, config_for=config_for, facts=facts,
        given_summaries=summaries, jobs=jobs, sources=sources, known_digests=digests,
    )
    return noqa.retract_unused(list(findings) + found, silenced)
