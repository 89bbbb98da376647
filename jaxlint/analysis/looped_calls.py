"""Calls of jitted callables made inside Python loops: where recompilation hazards live.

JAX204, JAX205 and JAX402 all start from the same question: which calls of a cached
(``jax.jit``-like) callable, whose static parameters can be read, sit inside a loop of their
scope?  This answers it once per module.

A call of a *forwarding wrapper* counts as a call of the jitted callable it forwards to: a plain
function whose body is only ``return step(a, b)``, each argument one of its own parameters
(``def run(x, lr): return step_jit(x, lr)``), through any depth of such wrappers.  Each
argument of the wrapper's call lands on the jitted parameter its own parameter is forwarded to
(the wrapper's summary, computed once per wrapper)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from jaxlint.analysis.scopes import FuncInfo, ModuleIndex, Scope
from jaxlint.analysis.syntax import arguments_by_position
from jaxlint.analysis.transforms import Application, TransformFinder, arguments_by_parameter


@dataclass(frozen=True)
class LoopedCall:
    app: Application  # the jitted callable
    statics: Set[str]  # its static parameters
    call: cst.Call
    scope: Scope  # where the call is
    order: int  # the call's place in its scope (the index's statement order)
    loops: List[Tuple[int, int]]  # the spans of the loops around the call, in the scope's order
    # for a call of a forwarding wrapper: (argument, jitted parameter) for each argument that
    # reaches the jitted callable; None for a direct call
    forwarded: Optional[Tuple[Tuple[cst.Arg, Optional[str]], ...]] = None

    @property
    def innermost(self) -> Tuple[int, int]:
        return max(self.loops)

    def arguments(self):
        """(argument, the jitted parameter it lands on, or None) for the call's arguments."""
        if self.forwarded is not None:
            return iter(self.forwarded)
        return arguments_by_parameter(self.app, self.call, self.app.jit_positional())


def looped_calls(index: ModuleIndex, finder: TransformFinder, analyzer) -> List[LoopedCall]:
    if not any(s.loops for _c, s, _o in index.calls):
        return []  # nothing is called in a loop
    where = {id(c): (s, o) for c, s, o in index.calls}
    out: List[LoopedCall] = []
    direct: Dict[int, List[Tuple[cst.Call, Scope]]] = {}
    for app in finder.applications:
        if not app.transform.cached:
            continue
        statics, opaque = analyzer.static_names(app)
        if opaque:
            continue
        sites = analyzer.call_sites_with_scopes(app)
        direct[id(app)] = sites
        for call, _scope in sites:
            so = where.get(id(call))
            if so is None:
                continue
            scope, order = so
            loops = [lp for lp in scope.loops if lp[0] <= order <= lp[1]]
            if loops:
                out.append(LoopedCall(app, statics, call, scope, order, loops))
    apps = {id(a): a for a in finder.applications}
    for g, (app, mapping) in _wrapper_summaries(index, finder, apps, direct, analyzer).items():
        statics, _opaque = analyzer.static_names(app)
        names = [p.name.value for p in g.positional_params()]
        for call, scope, order in index.calls:
            fn = call.func
            if not isinstance(fn, cst.Name) or scope.lookup_def(fn.value) is not g:
                continue
            loops = [lp for lp in scope.loops if lp[0] <= order <= lp[1]]
            if not loops:
                continue
            forwarded = tuple((a, mapping.get(p) if p is not None else None) for a, p in arguments_by_position(call, names))
            out.append(LoopedCall(app, statics, call, scope, order, loops, forwarded))
    return out


def _forwarding_call(g: FuncInfo) -> Optional[cst.Call]:
    """The call ``g``'s body returns, when the body is only that ``return`` (and a docstring)."""
    node = g.node
    if isinstance(node, cst.Lambda) or not isinstance(node.body, cst.IndentedBlock):
        return None
    stmts = list(node.body.body)
    if stmts and isinstance(stmts[0], cst.SimpleStatementLine) and isinstance(stmts[0].body[0], cst.Expr):
        if isinstance(stmts[0].body[0].value, (cst.SimpleString, cst.ConcatenatedString)):
            stmts = stmts[1:]
    if len(stmts) != 1 or not isinstance(stmts[0], cst.SimpleStatementLine) or len(stmts[0].body) != 1:
        return None
    ret = stmts[0].body[0]
    if not isinstance(ret, cst.Return) or not isinstance(ret.value, cst.Call):
        return None
    return ret.value


def _param_map(g: FuncInfo, pairs) -> Optional[Dict[str, str]]:
    """{g's parameter -> the parameter it lands on} when every argument is one of g's own
    parameters, bound only as a parameter; else None."""
    scope = g.body_scope
    if scope is None:
        return None
    params = set(g.all_param_names())
    mapping: Dict[str, str] = {}
    for a, lands in pairs:
        v = a.value
        if lands is None or not isinstance(v, cst.Name) or v.value not in params:
            return None
        binds = scope.bindings.get(v.value, ())
        if len(binds) != 1 or binds[0].kind != "param":
            return None
        mapping[v.value] = lands
    return mapping


def _wrapper_summaries(index, finder, apps, direct, analyzer) -> Dict[FuncInfo, Tuple[Application, Dict[str, str]]]:
    """Plain functions that only forward their parameters to a jitted callable, directly or
    through other such functions: wrapper -> (the jitted callable, parameter map)."""
    out: Dict[FuncInfo, Tuple[Application, Dict[str, str]]] = {}

    def plain(g: Optional[FuncInfo]) -> bool:
        return g is not None and not g.is_method and not isinstance(g.node, cst.Lambda) and not finder.is_traced_def(g)

    for aid, sites in direct.items():
        app = apps[aid]
        for call, scope in sites:
            g = scope.func if scope.kind == "function" else None
            if not plain(g) or _forwarding_call(g) is not call:
                continue
            mapping = _param_map(g, arguments_by_parameter(app, call, app.jit_positional()))
            if mapping is not None:
                out[g] = (app, mapping)
    # wrappers of wrappers, to a fixed point (each function at most once)
    changed = True
    while changed:
        changed = False
        for call, scope, _order in index.calls:
            g = scope.func if scope.kind == "function" else None
            if not plain(g) or g in out or _forwarding_call(g) is not call:
                continue
            fn = call.func
            inner = scope.lookup_def(fn.value) if isinstance(fn, cst.Name) else None
            if inner is None or inner not in out:
                continue
            app, inner_map = out[inner]
            names = [p.name.value for p in inner.positional_params()]
            pairs = [(a, inner_map.get(p)) for a, p in arguments_by_position(call, names)]
            if any(a.star for a in call.args):
                continue
            mapping = _param_map(g, [(a, lands) for a, lands in pairs if lands is not None])
            if mapping is not None:
                out[g] = (app, mapping)
                changed = True
    return out
