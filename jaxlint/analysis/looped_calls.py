"""Calls of jitted callables made inside Python loops: where recompilation hazards live.

JAX204, JAX205 and JAX402 all start from the same question: which calls of a cached
(``jax.jit``-like) callable, whose static parameters can be read, sit inside a loop of their
scope?  This answers it once per module."""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Set, Tuple

import libcst as cst

from jaxlint.analysis.scopes import ModuleIndex, Scope
from jaxlint.analysis.transforms import Application, TransformFinder


@dataclass(frozen=True)
class LoopedCall:
    app: Application  # the jitted callable
    statics: Set[str]  # its static parameters
    call: cst.Call
    scope: Scope  # where the call is
    order: int  # the call's place in its scope (the index's statement order)
    loops: List[Tuple[int, int]]  # the spans of the loops around the call, in the scope's order

    @property
    def innermost(self) -> Tuple[int, int]:
        return max(self.loops)


def looped_calls(index: ModuleIndex, finder: TransformFinder, analyzer) -> List[LoopedCall]:
    if not any(s.loops for _c, s, _o in index.calls):
        return []  # nothing is called in a loop
    where = {id(c): (s, o) for c, s, o in index.calls}
    out: List[LoopedCall] = []
    for app in finder.applications:
        if not app.transform.cached:
            continue
        statics, opaque = analyzer.static_names(app)
        if opaque:
            continue
        for call in analyzer.call_sites(app):
            so = where.get(id(call))
            if so is None:
                continue
            scope, order = so
            loops = [lp for lp in scope.loops if lp[0] <= order <= lp[1]]
            if loops:
                out.append(LoopedCall(app, statics, call, scope, order, loops))
    return out
