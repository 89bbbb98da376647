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
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

import libcst as cst

from jaxlint.analysis.model.transforms import FnRef
from jaxlint.analysis.traced.values import Val
from jaxlint.analysis.xmod.calls import interpret_call, member_call
from jaxlint.analysis.xmod.follow import follow_group, round_groups
from jaxlint.analysis.xmod.graph import ModuleGraph
from jaxlint.analysis.xmod.records import CallRecord, Export, MemberCall, Record, record_from_json
from jaxlint.analysis.xmod.summaries import ModuleSummary
from jaxlint import selection, suppressions
from jaxlint.config import Config
from jaxlint.paths import SourcePath
from jaxlint.engine.cache import Cache, content_digest, finding_from_json, finding_to_json
from jaxlint.engine.call_records import call_recorder
from jaxlint.engine.collection import one_collection_per_module
from jaxlint.engine.module_analysis import ModuleAnalysis
from jaxlint.engine.pipeline import meta_finding
from jaxlint.suppressions import suppress as apply_noqa
from jaxlint.engine.reporting import Reports, materialise, rule_handlers
from jaxlint.engine.piecewise_parse import parse_module
from jaxlint.source_text import decode_source
from jaxlint.findings import Finding
from jaxlint.rules import rules_for
from jaxlint.analysis.facts.static_paths import RemoteSlot, StaticPaths, StaticPath
from jaxlint.engine.runner import pool_context

MAX_ROUNDS = 3
# Source bytes whose trees the phase keeps after their group is done, the most recently opened
# ones: a module one group leads into is often one that a later group, or a later round, leads
# into again.  A tree takes about 50 bytes of memory for each byte of source (2 MB: 100 MB).
KEPT_TREES_BYTES = 2 * 1024 * 1024


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

    def follow_member(self, rec: MemberCall, cls, f, importer: str, pytree: bool) -> None:
        """``obj.member(...)`` of a record, on an instance of ``cls`` (a class of this module
        whose MRO has ``f``): ``f`` interpreted with the receiver the record describes.
        ``pytree``: the receiver's class is a pytree the class model can place."""
        call = member_call(rec, cls, f, pytree)
        if call is not None:
            self.follow(rec, call[0], importer, call[1])

    def follow(self, rec: CallRecord, ref: FnRef, importer: str, self_val: Optional[Val] = None) -> None:
        interpret_call(self.analyzer, rec, ref, importer, self_val)

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
    trees: Optional[Mapping[str, tuple]] = None,
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
    knows (by path), which spare reading those files again.  ``trees``: (bytes, parsed tree) of
    modules the per-file pass parsed, by path, which spare parsing them again."""
    if not any(calls_by_display.values()):
        return []
    records = {display: [record_from_json(r) for r in recs] for display, recs in calls_by_display.items()}

    def read(path: str) -> bytes:
        if sources is not None and path in sources:
            return sources[path]
        with open(path, "rb") as fh:
            return fh.read()

    parsed: Dict[str, tuple] = {}

    def open_target(path: str, display: str, data: bytes) -> _Target:
        text = decode_source(data)
        tconfig, trules = config, rules
        if config_for is not None:
            tconfig = config_for(path)
            trules = rules_for(tconfig)
        kept = (trees.get(path) if trees else None) or parsed.pop(path, None)
        # A tree is never changed by an analysis: the one the per-file pass, or an earlier
        # group, parsed from the same bytes serves another.
        module = kept[1] if kept is not None and kept[0] == data else parse_module(text)
        if len(data) <= KEPT_TREES_BYTES:
            parsed[path] = (data, module)  # the most recently opened last
            while sum(len(d) for d, _ in parsed.values()) > KEPT_TREES_BYTES:
                del parsed[next(iter(parsed))]
        return _Target(path, display, module, text, tconfig, trules)

    # Each target module's tree goes at the next harvest: collect then, not while it is read.
    with one_collection_per_module() as paused:
        graph = ModuleGraph(files, records, read, open_target, content_digest, paused.collect, cache, given_summaries, known_digests)
        phase = _Phase(graph, cache, existing, facts, paused)
        work = [(display, rec) for display, recs in sorted(records.items()) for rec in recs if not isinstance(rec, Export)]
        for _ in range(MAX_ROUNDS):
            work = phase.round(work, jobs)
            if not work:
                break
    phase.out.sort(key=Finding.sort_key)
    if silenced_out is not None:
        silenced_out.extend(phase.silenced)
    return phase.out


class _Phase:
    """The rounds of the cross-module phase: each round's groups answered by the cache or
    followed (here or in worker processes), their findings kept once, their modules' trees
    released as soon as their part is done."""

    def __init__(self, graph: ModuleGraph, cache, existing: Sequence[Finding], facts: bool, paused):
        self.graph = graph
        self.cache = cache
        self.facts = facts
        self.paused = paused
        self.have = {(f.path, f.line, f.column, f.code) for f in existing}
        self.out: List[Finding] = []
        self.silenced: List[tuple] = []
        self.done: set = set()
        self.uses: Dict[str, List[str]] = {}
        # Incremental by dependency: the work on one target module (its records of one round) is
        # cached on its own, keyed by those records, and checked on a hit against what that work
        # read of the run (ModuleGraph.work_read).  An edit, or a file added, re-runs only the
        # work that read the edited module or asked for the added one.

    def harvest(self, keep=()) -> Tuple[List[Finding], List[tuple]]:
        # Findings of the modules read, then their parsed trees go (but those of ``keep``, the
        # modules the next parts interpret): memory stays at one part's worth.
        targets = self.graph.targets
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
            found.extend(t.findings(t.config, self.facts))
            quiet.extend(t.silenced)
        t = None
        if not released:
            # Most parts read no module (their records lead nowhere): nothing to free, and a
            # collection here would scan the young objects of the whole run again.
            return found, quiet
        # A tree that lived through a collection (kept for the next part, or while a lookup's
        # tree was freed) is in the older generation.  Collect that one too, but only when no
        # tree is kept: a kept tree would be promoted past it and then outlive its release.
        self.paused.collect(0 if any(targets.get(m) is not None for m in keep) else 1)
        return found, quiet

    def keep(self, found: List[Finding], quiet: List[tuple]) -> None:
        for f in found:
            if (f.path, f.line, f.column, f.code) not in self.have:
                self.have.add((f.path, f.line, f.column, f.code))
                self.out.append(f)
        self.silenced.extend(quiet)

    def group_key(self, module: str, group: list) -> str:
        info = self.graph.info
        recs = [[qual, importer, info.get(importer), rec.to_json()] for qual, importer, rec in group]
        blob = json.dumps([module, recs, sorted(set(self.uses.get(module, ())))], sort_keys=True, separators=(",", ":"))
        return self.cache.key(hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest(), "<cross-module>")

    def follow_one(self, module: str, group: list) -> tuple:
        """(findings, silenced, records made, what it read: ModuleGraph.work_read) of following
        one round's records that lead into ``module``."""
        graph = self.graph
        graph.begin_work()
        parts = graph.split_by_home(module, group)
        homes = [where for where, _ in parts]
        found: List[Finding] = []
        quiet: List[tuple] = []
        produced = []
        for i, (where, part) in enumerate(parts):
            produced.extend(follow_group(module, part, self.uses, graph))
            part_found, part_quiet = self.harvest(keep=set(homes[i + 1 :]))
            found.extend(part_found)
            quiet.extend(part_quiet)
        return found, quiet, produced, graph.work_read()

    def cached(self, gkey: str) -> Optional[tuple]:
        """The result of a group the cache holds, if what it read of the run is unchanged."""
        hit = self.cache.get_json(gkey)
        try:
            if hit is None or not self.graph.still_reads(hit):
                return None
        except (KeyError, TypeError, ValueError, AttributeError):
            return None  # a malformed entry: the work is done again and the entry rewritten
        found = [finding_from_json(d) for d in hit["findings"]]
        produced = [(d, record_from_json(r)) for d, r in hit.get("next", [])]
        return found, [tuple(x) for x in hit.get("silenced", [])], produced, None

    def round(self, work: List[Tuple[str, Record]], jobs: int) -> List[Tuple[str, Record]]:
        """Follow one round's records; returns the next round's."""
        groups = round_groups(work, self.graph, self.uses, self.done)
        # Each group is followed on its own (its trees go when it is done; lookups read
        # plain summaries), so the groups a cache does not answer can be followed in any
        # process; their results are taken in the groups' order, as one process would.
        results: List[Optional[tuple]] = []
        todo: List[Tuple[int, str, list]] = []
        keys: List[Optional[str]] = []
        for module, group in groups.items():
            gkey = self.group_key(module, group) if self.cache is not None else None
            keys.append(gkey)
            hit = self.cached(gkey) if gkey is not None else None
            results.append(hit)
            if hit is None:
                todo.append((len(results) - 1, module, group))
        for i, result in _follow_groups(self.follow_one, todo, jobs):
            results[i] = result
        next_work = []
        for gkey, (found, quiet, produced, read) in zip(keys, results):
            self.keep(found, quiet)
            next_work.extend(produced)
            if gkey is not None and read is not None:
                self.cache.put_json(
                    gkey,
                    {
                        **read,
                        "findings": [finding_to_json(f) for f in found],
                        "silenced": sorted(set(quiet)),
                        "next": [(d, r.to_json()) for d, r in produced],
                    },
                )
        return next_work


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
    trees: Optional[Mapping[str, tuple]] = None,
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
        xcache = Cache(cache_dir, key, tuple(r.code for r in rules), facts, pack="cross-module-pack")
    silenced: list = []
    found = cross_module_findings(
        files, calls_by_display, findings, first, rules, xcache, silenced_out=silenced, config_for=config_for, facts=facts,
        given_summaries=summaries, jobs=jobs, sources=sources, known_digests=digests, trees=trees,
    )
    if xcache is not None:
        xcache.save_pack()  # the phase's entries (work and summaries) in one file for the next run
    return suppressions.retract_unused(list(findings) + found, silenced)

