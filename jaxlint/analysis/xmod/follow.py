"""Following the records of one round of the cross-module phase into the modules they lead to.

A round's records are grouped by the module that handles them: the callee's module for a call,
the importer's own module for its host calls and the classes it uses (each handled once per
module).  Following a group interprets code of the run's modules and yields the records that
code makes in turn, the next round's work.
"""

from __future__ import annotations

from typing import Dict, List, Sequence, Set, Tuple

from jaxlint.analysis.traced.values import TRACED
from jaxlint.analysis.xmod.graph import ModuleGraph
from jaxlint.analysis.xmod.names import absolute
from jaxlint.analysis.xmod.records import HostCall, MemberCall, Record, UsesClass, record_from_json

# (qualified name the record leads to, display of the file that made it, the record)
Item = Tuple[str, str, Record]


def round_groups(work: Sequence[Tuple[str, Record]], graph: ModuleGraph, uses: Dict[str, List[str]], done: Set[tuple]) -> Dict[str, List[Item]]:
    """The round's records (``work``: (display of the file that made it, record)) grouped by
    the module that handles them, one target module after the other so that one tree is in
    memory at a time.  ``uses``: filled with the classes each module's traced parameters are
    instances of; ``done``: what earlier rounds handled, which is not handled again."""
    items = []
    uses.clear()
    for importer, rec in work:
        modname, is_pkg = graph.info.get(importer, ("", False))
        if isinstance(rec, UsesClass):
            if not uses.get(modname):
                items.append((modname, modname, importer, rec))
            uses.setdefault(modname, []).append(rec.qual)
            continue
        if isinstance(rec, HostCall):
            # checked in the importer's own tree, against what the callee's module provides
            items.append((modname, absolute(rec.qual, modname, is_pkg), importer, rec))
            continue
        qual = absolute(rec.target, modname, is_pkg)
        items.append((qual.rpartition(".")[0], qual, importer, rec))
    items.sort(key=lambda it: it[0])
    groups: Dict[str, List[Item]] = {}
    for module, qual, importer, rec in items:
        # a module's host calls, and the classes it uses: each handled once for the module
        key = ("host", module) if isinstance(rec, HostCall) else ("uses", module) if isinstance(rec, UsesClass) else (qual, repr(rec))
        if key in done:
            continue
        done.add(key)
        groups.setdefault(module, []).append((qual, importer, rec))
    return groups


def follow_group(module: str, group: Sequence[Item], uses: Dict[str, List[str]], graph: ModuleGraph) -> List[Tuple[str, Record]]:
    """Follow the records of one round that lead into ``module``; returns the records the
    followed code makes in turn, as (display, record)."""
    next_work: List[Tuple[str, Record]] = []
    for qual, importer, rec in group:
        if isinstance(rec, UsesClass):
            _reinterpret(module, importer, uses, graph)
        elif isinstance(rec, HostCall):
            _check_host_calls(module, qual, importer, graph)
        else:
            next_work.extend(_follow_call(qual, importer, rec, graph))
    return next_work


def _reinterpret(module: str, importer: str, uses: Dict[str, List[str]], graph: ModuleGraph) -> None:
    """Interpret ``module`` again knowing the classes of the run its traced parameters are
    instances of."""
    is_pkg = graph.info.get(importer, ("", False))[1]
    foreign, delegates = {}, {}
    for q in sorted(set(uses.get(module, ()))):
        tq, cls = graph.resolve_class(absolute(q, module, is_pkg))
        if cls is not None:
            foreign[q] = cls
            delegates[id(tq.index.module_scope)] = tq.analyzer.classes
    t = graph.target(module) if foreign and module else None
    if t is None:
        return
    try:
        t.reinterpret(foreign, delegates)
    except RecursionError:
        pass
    except Exception as e:  # noqa: BLE001 - one module's bug must never stop a run
        t.internal_error(e)


def _check_host_calls(module: str, qual: str, importer: str, graph: ModuleGraph) -> None:
    """The host calls of ``module`` checked against the wrappers and factories the callees'
    modules provide (``qual``: one callee that is one, else nothing is checked)."""
    if not module or graph.resolve_export(qual) is None:
        return
    t = graph.target(module)
    if t is None:
        return
    is_pkg = graph.info.get(importer, ("", False))[1]

    def lookup(q, returned):
        found = graph.resolve_export(absolute(q, module, is_pkg))
        if found is None or (found["provides"] == "factory") != returned:
            return None
        return found

    try:
        for path, built in t.host_paths(lookup):
            w = graph.target(path.node.export["module"])
            if w is not None:
                w.wrapper_path(path, built)
    except Exception as e:  # noqa: BLE001 - one module's bug must never stop a run
        t.internal_error(e)


def _follow_call(qual: str, importer: str, rec: Record, graph: ModuleGraph) -> List[Tuple[str, Record]]:
    """Interpret the callee of a call record with the record's arguments; the records the
    callee makes in turn."""
    if isinstance(rec, MemberCall):
        t, cls, f = graph.resolve_member(qual, rec.member)
    else:
        (t, ref), cls = graph.resolve(qual), None
    if t is None:
        return []
    before = len(t.calls)
    try:
        if cls is not None:
            t.follow_member(rec, cls, f, importer, rec.receiver[0] != TRACED or graph.is_pytree(qual))
        else:
            t.follow(rec, ref, importer)
    except RecursionError:
        return []
    except Exception as e:  # noqa: BLE001 - one module's bug must never stop a run
        t.internal_error(e)
        return []
    return [(t.display, record_from_json(r)) for r in t.calls[before:]]
