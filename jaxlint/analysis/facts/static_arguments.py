"""Arguments passed for static parameters at the call sites of the module's jitted functions."""

from __future__ import annotations

from typing import List, NamedTuple, Optional

import libcst as cst

from jaxlint.analysis.syntax.scopes import ModuleIndex, Scope
from jaxlint.analysis.traced.calls import Analyzer
from jaxlint.analysis.model.transforms import Application, TransformFinder, arguments_by_parameter


class StaticArgument(NamedTuple):
    application: Application  # the jit the parameter is static for
    arg: cst.Arg  # the argument at the call site
    param: str  # the static parameter it is passed for
    scope: Scope  # where the call is made
    order: int  # the call's position in that scope


def find_static_arguments(index: ModuleIndex, finder: TransformFinder, analyzer: Analyzer) -> List[StaticArgument]:
    """Every argument passed for a static parameter at a call site of a jitted function."""
    found: List[StaticArgument] = []
    where = {id(c): (s, o) for c, s, o in index.calls}
    for app in finder.applications:
        if not app.transform.statics:
            continue
        statics, opaque = analyzer.static_names(app)
        if opaque or not statics:
            continue
        pos = app.jit_positional()
        for call in analyzer.call_sites(app):
            so = where.get(id(call))
            if so is None:
                continue
            scope, order = so
            for a, pname in arguments_by_parameter(app, call, pos):
                if pname in statics:
                    found.append(StaticArgument(app, a, pname, scope, order))
    return found


def counter_loop_of(scope: Scope, name: str, order: int) -> Optional[int]:
    """The order of the ``for`` statement enclosing ``order`` whose target ``name`` counts
    (``for name in range(...)``, ``for name, _ in enumerate(...)``): many distinct values."""
    for b in scope.bindings.get(name, ()):
        if b.kind != "for" or b.order is None or not isinstance(b.value, cst.For):
            continue
        loop = b.value
        it = loop.iter
        if not (isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and scope.lookup_scope(it.func.value) is None):
            continue
        t = loop.target
        counts = (it.func.value == "range" and isinstance(t, cst.Name) and t.value == name) or (
            it.func.value == "enumerate"
            and isinstance(t, cst.Tuple)
            and t.elements
            and isinstance(t.elements[0].value, cst.Name)
            and t.elements[0].value.value == name
        )
        if not counts:
            continue
        for start, end in scope.loops:
            if start == b.order and start <= order <= end:
                return start
    return None
