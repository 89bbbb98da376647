"""The modules of one run as a graph: which file each dotted name is, what a lookup reads of a
module (its summary), and where a qualified name leads (a function, a class, a member along a
class's bases, a wrapper or factory another module provides), following re-exports.

A lookup reads summaries, plain data; only a module whose code is interpreted is parsed and
analysed (a target), and it is kept until its findings are harvested.  Every module a piece of
piece of work asked of the run is remembered (:meth:`work_read`) so its cached result can be
checked against what it depended on: the contents of a module it interpreted, the summary of one
it only looked up (an edit that leaves a module's summary as it was leaves that work valid), the
file each module name it asked for is (an added file matters only to work that asked for its
name), and what it read of what modules provide to host code.
"""

from __future__ import annotations

import json
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from jaxlint.analysis.jax.jax_api import KNOWN_APIS
from jaxlint.analysis.xmod import summaries as _summaries
from jaxlint.analysis.xmod.names import absolute, is_package, module_name
from jaxlint.analysis.xmod.records import Export, HostCall, MemberCall, Record, UsesClass
from jaxlint.analysis.xmod.summaries import ClassSummary, ModuleSummary, summary_from_json, summary_to_json

# A lookup follows at most this many re-exports or bases before it gives up.
MAX_HOPS = 3


class ModuleGraph:
    """``files``: (path, display) of the run; ``read(path)``: a file's contents;
    ``open_target(path, display, data)``: the module parsed and analysed (raises when it cannot
    be); ``digest(data)``: the content digest the cache keys on; ``collect``: a collection
    between modules; ``cache``: where summaries are kept across runs (or None);
    ``given_summaries``: those the per-file pass made, by path; ``known_digests``: the digests
    it knows, by path; ``records``: each file's typed records, by display."""

    def __init__(
        self,
        files: Sequence[Tuple[str, str]],
        records: Mapping[str, Sequence[Record]],
        read: Callable[[str], bytes],
        open_target: Callable,
        digest: Callable[[bytes], str],
        collect: Callable[[], None],
        cache=None,
        given_summaries: Optional[Mapping[str, ModuleSummary]] = None,
        known_digests: Optional[Mapping[str, str]] = None,
    ):
        self.read = read
        self.open_target = open_target
        self.digest = digest
        self.collect = collect
        self.cache = cache
        self.given_summaries = given_summaries
        self.by_module: Dict[str, Tuple[str, str]] = {}  # dotted name -> (path, display)
        self.info: Dict[str, Tuple[str, bool]] = {}  # display -> (dotted name, is a package)
        self.folders: Dict[str, Tuple[str, ...]] = {}  # for module_name, over the whole run
        for path, display in files:
            if path == "-":
                continue
            name = self.name_of(path)
            if name:
                self.by_module.setdefault(name, (path, display))
            self.info[display] = (name, is_package(path))
        self.targets: Dict[str, Optional[object]] = {}  # modules parsed, until harvested
        self.summaries: Dict[str, Optional[ModuleSummary]] = {}  # for the whole run: plain data
        self.digests: Dict[str, Optional[str]] = dict(known_digests or {})  # path -> digest, read once per run
        # What the current work read.  Modules by path: [content digest] of one it interpreted,
        # [content digest, summary digest] of one whose summary it only read.
        self.group_deps: Dict[str, List[str]] = {}
        self.names_read: Dict[str, Optional[list]] = {}  # module name -> [path, display] or None
        self.exports_read: Dict[str, Optional[str]] = {}  # qualified name -> digest of the export or None
        self.module_at = {path: name for name, (path, _) in self.by_module.items()}
        self._summary_digests: Dict[str, str] = {}  # path -> digest of its summary
        self.grouping: List[str] = []  # the module whose records are being split by home, while they are
        # While a group's records are split by module: the first other module read for it (most
        # records of a group lead into one module), kept for its part.
        self.first_read: Dict[str, object] = {}
        self.exports = self._exports(records)

    def name_of(self, path: str) -> str:
        return module_name(path, self.folders)

    def _exports(self, records: Mapping[str, Sequence[Record]]) -> Dict[Tuple[str, str], dict]:
        """What each module provides to host code elsewhere: its wrappers and factories of
        jitted functions with static parameters, by (module, name)."""
        exports: Dict[Tuple[str, str], dict] = {}
        for display, recs in sorted(records.items()):
            for rec in recs:
                if isinstance(rec, Export) and display in self.info:
                    modname = self.info[display][0]
                    exports.setdefault((modname, rec.name), dict(rec.to_json(), path=display, module=modname))
        return exports

    # -- modules read ---------------------------------------------------------------------

    def begin_work(self) -> None:
        self.group_deps.clear()
        self.names_read.clear()
        self.exports_read.clear()

    def work_read(self) -> dict:
        """What the work since :meth:`begin_work` read, as plain data (see :meth:`still_reads`)."""
        deps = sorted([p, *dep] for p, dep in self.group_deps.items())
        return {"deps": deps, "names": dict(self.names_read), "exports": dict(self.exports_read)}

    def still_reads(self, read: dict) -> bool:
        """Whether what a piece of work read (:meth:`work_read`) is as it was then."""
        return (
            all(self._named(name) == loc for name, loc in read["names"].items())
            and all(self._export_digest(self.exports.get(tuple(q.rpartition(".")[::2]))) == d for q, d in read["exports"].items())
            and all(self.unchanged(*dep) for dep in read["deps"])
        )

    def _named(self, modname: str) -> Optional[list]:
        loc = self.by_module.get(modname)
        return list(loc) if loc is not None else None

    def _export_digest(self, export: Optional[dict]) -> Optional[str]:
        if export is None:
            return None
        return self.digest(json.dumps(export, sort_keys=True, separators=(",", ":")).encode("utf-8", "surrogatepass"))

    def depend(self, path: str, dep: List[str]) -> None:
        """The current work read ``dep`` of the module at ``path``: its contents outweigh its summary."""
        held = self.group_deps.get(path)
        if held is None or len(held) > len(dep):
            self.group_deps[path] = dep

    def unchanged(self, path: str, digest: str, summarised: Optional[str] = None) -> bool:
        """Whether what a piece of work read of the module at ``path`` is as it was then: its
        contents (``digest``), or, where the work read only its summary, that (``summarised``)."""
        if self.digest_of(path) == digest:
            return True
        name = self.module_at.get(path) if summarised is not None else None
        if name is None:
            return False
        if name not in self.summaries:
            self.summaries[name] = self._summary_of(name, held=False)  # outside any work: no tree kept
        s = self.summaries[name]
        return s is not None and self.summary_digest(s) == summarised

    def summary_digest(self, s: ModuleSummary) -> str:
        got = self._summary_digests.get(s.path)
        if got is None:
            blob = json.dumps(summary_to_json(s), sort_keys=True, separators=(",", ":"))
            got = self._summary_digests[s.path] = self.digest(blob.encode("utf-8", "surrogatepass"))
        return got

    def digest_of(self, path: str) -> Optional[str]:
        if path not in self.digests:
            try:
                self.digests[path] = self.digest(self.read(path))
            except OSError:
                self.digests[path] = None
        return self.digests[path]

    def _load(self, modname: str):
        loc = self.by_module.get(modname)
        if loc is None:
            return None
        path, display = loc
        try:
            data = self.read(path)
            self.digests[path] = digest = self.digest(data)
            self.depend(path, [digest])
            return self.open_target(path, display, data)
        except Exception:  # noqa: BLE001 - a file that fails here was already reported
            return None

    def target(self, modname: str):
        """The module parsed and analysed, kept until the group's findings are harvested."""
        self.names_read[modname] = self._named(modname)
        if modname not in self.targets:
            self.targets[modname] = self._load(modname)
        return self.targets[modname]

    def summary(self, modname: str) -> Optional[ModuleSummary]:
        """What a lookup passing through the module reads.  While a group's records are
        split by module, the trees read for it are dropped at once, but the group's own
        module's and the first other one's, which the records usually reach; while they are
        followed, a tree read is kept with the part's other trees (the lookups there read the
        modules then interpreted)."""
        self.names_read[modname] = self._named(modname)
        if modname not in self.summaries:
            self.summaries[modname] = self._summary_of(modname)
        s = self.summaries[modname]
        if s is not None and s.digest is not None:
            self.depend(s.path, [s.digest, self.summary_digest(s)])
        return s

    def _summary_of(self, modname: str, held: bool = True) -> Optional[ModuleSummary]:
        """The module's summary: the per-file pass', the cache's, or made here (``held``: the
        tree read for it may be kept for the work under way)."""
        loc = self.by_module.get(modname)
        if loc is None:
            return None
        path = loc[0]
        cache = self.cache
        given = self.given_summaries.get(path) if self.given_summaries else None
        if given is not None:
            # the contents the summary was made from are the ones the cache entries depend on
            self.digests.setdefault(path, given.digest)
            if cache is not None and given.digest is not None:
                cache.put_json(cache.key(given.digest, "<summary> " + path), summary_to_json(given))
            return given
        skey = None
        if cache is not None:
            digest = self.digest_of(path)
            if digest is not None:
                skey = cache.key(digest, "<summary> " + path)
                hit = cache.get_json(skey)
                if hit is not None:
                    try:
                        return summary_from_json(hit, path, digest)
                    except (KeyError, TypeError, ValueError, AttributeError):
                        pass  # a malformed entry: read the module and rewrite it
        s = self._summarise(modname, held)
        if s is not None and skey is not None:
            cache.put_json(skey, summary_to_json(s))
        return s

    def _summarise(self, modname: str, held: bool = True) -> Optional[ModuleSummary]:
        temporary = modname not in self.targets and (not held or bool(self.grouping) and self.grouping[0] != modname)
        t = self._load(modname) if temporary else self.target(modname)
        if t is None:
            return None
        s = _summaries.summarise(t.analysis, t.path, self.digests.get(t.path))
        if temporary and held and not self.first_read:
            self.first_read[modname] = t
        elif temporary:
            del t
            self.collect()  # the analysis' cycles hold the tree: free it now
        return s

    def _importer(self, s: ModuleSummary) -> Tuple[str, bool]:
        return self.name_of(s.path), is_package(s.path)

    # -- functions, classes and members ---------------------------------------------------

    def locate(self, qual: str, hops: int = 0) -> Optional[Tuple[str, str]]:
        """(module, name) of the function ``qual``, following re-exports."""
        mod, _, name = qual.rpartition(".")
        s = self.summary(mod) if mod else None
        if s is None:
            return None
        if name in s.functions:
            return mod, name
        reexport = s.imports.get(name)
        if reexport is not None and hops < MAX_HOPS:
            return self.locate(absolute(reexport, *self._importer(s)), hops + 1)
        return None

    def resolve(self, qual: str):
        """(target, FnRef) of the function ``qual``, following re-exports."""
        found = self.locate(qual)
        t = self.target(found[0]) if found is not None else None
        if t is None:
            return None, None
        return t, t.function(found[1])[0]

    def locate_class(self, qual: str, hops: int = 0) -> Optional[Tuple[str, str, ClassSummary]]:
        """(module, name, summary) of the class ``qual``, following re-exports."""
        mod, _, name = qual.rpartition(".")
        s = self.summary(mod) if mod and not qual.startswith(KNOWN_APIS) else None
        if s is None or hops > MAX_HOPS:
            return None
        cls = s.classes.get(name)
        if cls is not None:
            return mod, name, cls
        reexport = s.imports.get(name)
        if reexport is None:
            return None
        return self.locate_class(absolute(reexport, *self._importer(s)), hops + 1)

    def resolve_class(self, qual: str):
        """(target, class) for the class ``qual``, following re-exports."""
        found = self.locate_class(qual)
        t = self.target(found[0]) if found is not None else None
        if t is None:
            return None, None
        return t, t.cls(found[1])[0]

    def is_pytree(self, qual: str, hops: int = 0) -> bool:
        """Whether the class ``qual`` is a pytree the class model places, also through a base
        class in another module of the run."""
        found = self.locate_class(qual)
        if found is None or hops > MAX_HOPS:
            return False
        mod, _, cls = found
        if cls.pytree:
            return True
        if cls.imported_base is None:
            return False
        path = self.by_module[mod][0]
        return self.is_pytree(absolute(cls.imported_base, self.name_of(path), is_package(path)), hops + 1)

    def locate_member(self, qual: str, member: str, hops: int = 0) -> Optional[Tuple[str, str]]:
        """(module, class name) of the class, ``qual`` or one of its bases, also those in other
        modules of the run, whose MRO in its module has ``member``."""
        mod, _, name = qual.rpartition(".")
        s = self.summary(mod) if mod else None
        if s is None or hops > MAX_HOPS:
            return None
        importer = self._importer(s)
        cls = s.classes.get(name)
        if cls is None:
            reexport = s.imports.get(name)
            if reexport is None:
                return None
            return self.locate_member(absolute(reexport, *importer), member, hops + 1)
        if member in cls.members:
            return mod, name
        if cls.imported_base is None:
            return None
        return self.locate_member(absolute(cls.imported_base, *importer), member, hops + 1)

    def resolve_member(self, qual: str, member: str):
        """(target, class, function) for ``member`` of the class ``qual``, looked up along its
        bases, also those in other modules of the run."""
        found = self.locate_member(qual, member)
        t = self.target(found[0]) if found is not None else None
        if t is None:
            return None, None, None
        cls = t.cls(found[1])[0]
        return t, cls, t.analyzer.classes.member(cls, member)

    def home(self, qual: str, rec: Record) -> Optional[str]:
        """The module whose tree following the call record ``rec`` interprets."""
        found = self.locate_member(qual, rec.member) if isinstance(rec, MemberCall) else self.locate(qual)
        return found[0] if found is not None else None

    def split_by_home(self, module: str, group: list) -> List[Tuple[str, list]]:
        """The records of a group in parts, (module, records) for each module whose tree
        following them interprets (the host calls and the classes a module uses are followed
        in the module itself): the group's own module first, then the others in the order they
        first appear.  Each part's trees can go before the next part is followed.  The first
        other module read while splitting is kept when a part is followed there; one that no
        part interprets goes, and the work depends on its summary alone."""
        self.grouping.append(module)
        try:
            parts: Dict[str, list] = {module: []}
            for qual, importer, rec in group:
                where = module if isinstance(rec, (UsesClass, HostCall)) else self.home(qual, rec) or module
                parts.setdefault(where, []).append((qual, importer, rec))
        finally:
            self.grouping.clear()
        split = [(where, part) for where, part in parts.items() if part]
        homes = {where for where, _ in split}
        self.targets.update(self.first_read)
        self.first_read.clear()
        unused = [m for m in self.targets if m not in homes]
        for modname in unused:
            del self.targets[modname]
        if unused:
            self.collect()  # the analysis' cycles hold the trees: free them now
        for path, dep in self.group_deps.items():
            name = self.module_at.get(path)
            s = self.summaries.get(name)
            if len(dep) == 1 and name not in homes and s is not None and s.digest is not None:
                self.group_deps[path] = [s.digest, self.summary_digest(s)]  # read for its summary alone
        return split

    # -- what modules provide to host code ------------------------------------------------

    def resolve_export(self, qual: str, hops: int = 0) -> Optional[dict]:
        """The wrapper or factory record ``qual`` names, following a package's re-exports."""
        mod, _, name = qual.rpartition(".")
        found = self.exports.get((mod, name))
        self.exports_read[qual] = self._export_digest(found)
        if found is None and hops < MAX_HOPS and not qual.startswith(KNOWN_APIS):
            self.names_read[mod] = loc = self._named(mod)
            if loc is not None and is_package(loc[0]):
                # a package re-exporting the function: ``from .utils import wrap``
                package = self.summary(mod)
                reexport = package.imports.get(name) if package is not None else None
                if reexport is not None:
                    found = self.resolve_export(absolute(reexport, mod, True), hops + 1)
        return found
