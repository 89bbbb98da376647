"""Calls of jitted callables made inside Python loops: where recompilation hazards live.

JAX204, JAX205 and JAX402 all start from the same question: which calls of a cached
(``jax.jit``-like) callable, whose static parameters can be read, sit inside a loop of their
scope?  This answers it once per module.

A call of a *forwarder* counts as a call of the jitted callable it forwards to: a function,
method, ``__call__`` or closure that calls ``step(a, b)`` on every run
(jaxlint.analysis.model.every_run: ``return step(a, b)``, or a loop over a non-empty list of
stages), each argument one of its own parameters passed unchanged (``def run(x, lr): return
step_jit(x, lr)``), where ``step`` is whatever the
call reaches (jaxlint.analysis.model.call_targets: a jitted function, ``self._step`` set in
``__init__``, a callable parameter every caller binds, another forwarder), through any depth of
forwarders.  The forwarder's calls are found the same way (``Runner().apply``, an instance, the
closure a factory returns, ``functools.partial(apply_with, step)``).  Each argument of such a
call lands on the jitted parameter its own parameter is forwarded to (the forwarder's summary,
computed once per forwarder), and the forwarding calls are kept as the chain from the call the
user edits to the jitted callable."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from jaxlint.analysis.model.every_run import calls_on_every_run, returns_result
from jaxlint.analysis.syntax.module_index import ModuleIndex
from jaxlint.analysis.syntax.scopes import FuncInfo, Scope
from jaxlint.analysis.model.transforms import Application, TransformFinder, arguments_by_parameter


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
    # for a call of a forwarder: the forwarding calls, outermost first, down to the call of
    # the jitted callable
    chain: Tuple[cst.Call, ...] = ()
    # the call's value is what the jitted callable returns (a direct call, or forwarders that
    # each return what they call)
    returns_result: bool = True

    @property
    def innermost(self) -> Tuple[int, int]:
        return max(self.loops)

    def related(self):
        """The forwarding chain as related locations (empty for a direct call)."""
        return [(c, f"forwarded to {self.app.func.name}() here" if i == len(self.chain) - 1 else "forwarded here") for i, c in enumerate(self.chain)]

    def arguments(self):
        """(argument, the jitted parameter it lands on, or None) for the call's arguments."""
        if self.forwarded is not None:
            return iter(self.forwarded)
        return arguments_by_parameter(self.app, self.call, self.app.jit_positional())


def looped_calls(index: ModuleIndex, finder: TransformFinder, analyzer) -> List[LoopedCall]:
    if not any(s.loops for _c, s, _o in index.calls):
        return []  # nothing is called in a loop
    where = analyzer.module_ctx.call_sites.sites
    out: List[LoopedCall] = []
    direct: Dict[int, List[Tuple[cst.Call, Scope]]] = {}
    for app, statics in analyzer.cached_applications():
        sites = analyzer.call_sites_with_scopes(app)
        direct[id(app)] = sites
        for call, _scope in sites:
            so = where.get(id(call))
            if so is None:
                continue
            scope, order = so
            loops = [lp for lp in scope.loops if lp[0] <= order <= lp[1]]
            if loops and not finder.in_traced_code(scope):
                out.append(LoopedCall(app, statics, call, scope, order, loops))
    ct = finder.call_targets
    for fwd in _forwarders(index, finder, {id(a) for a in finder.applications if id(a) in direct}).values():
        statics, _opaque = analyzer.static_names(fwd.app)
        for call, scope, t in ct.callers(fwd.func):
            so = where.get(id(call))
            if so is None or so[0] is not scope:
                continue
            order = so[1]
            loops = [lp for lp in scope.loops if lp[0] <= order <= lp[1]]
            if not loops or finder.in_traced_code(scope):
                continue
            bound = ct.bind(t, call, scope)
            if bound is None:
                continue
            lands = {id(p.expr): name for name, p in bound.items() if p.call is call and p.expr is not None}
            forwarded = tuple((a, fwd.mapping.get(lands.get(id(a.value)))) for a in call.args)
            out.append(LoopedCall(fwd.app, statics, call, scope, order, loops, forwarded, fwd.chain, fwd.returns_result))
    return out


@dataclass(frozen=True)
class Forwarder:
    func: FuncInfo
    app: Application
    mapping: Dict[str, str]  # the forwarder's parameter -> the jitted parameter it reaches
    chain: Tuple[cst.Call, ...]  # the forwarding calls, this one's first
    returns_result: bool  # the forwarder returns what the jitted callable returns


def _param_map(g: FuncInfo, call: cst.Call, bound) -> Optional[Dict[str, str]]:
    """{g's parameter -> the parameter of the callee it lands on} for the arguments of
    ``call`` that are g's own parameters, passed as they are (each bound only as a parameter,
    and passed once); None when an argument's place is unknown or no parameter is forwarded.
    Other arguments (``self.params``, a constant) are g's own business: they are not the
    caller's.  ``bound``: the callee's parameter -> what lands there
    (``CallTargets.bind``, jaxlint.analysis.model.call_targets)."""
    scope = g.body_scope
    if scope is None or bound is None:
        return None
    params = set(g.all_param_names())
    by_expr = {id(p.expr): name for name, p in bound.items() if p.call is call and p.expr is not None}
    mapping: Dict[str, str] = {}
    for a in call.args:
        v = a.value
        lands = by_expr.get(id(v))
        if a.star or lands is None:
            return None
        if not isinstance(v, cst.Name) or v.value not in params:
            continue
        if not scope.unrebound_param(v.value) or v.value in mapping:
            return None
        mapping[v.value] = lands
    return mapping or None


def _forwarders(index, finder, apps) -> Dict[int, Forwarder]:
    """Host functions, methods and closures that only forward their parameters to a jitted
    callable of ``apps`` (ids), directly or through other forwarders, by the node of each."""
    if not apps:
        return {}  # no jitted callable to forward to: no function of the module is a forwarder
    ct = finder.call_targets
    out: Dict[int, Forwarder] = {}
    candidates = []
    seen = set()
    for _call, scope, _order in index.calls:
        g = scope.func if scope.kind == "function" else None
        if g is None or id(g.node) in seen or isinstance(g.node, cst.Lambda) or finder.is_traced_def(g):
            continue
        seen.add(id(g.node))
        for call, held in calls_on_every_run(g, ct):
            candidates.append((g, call, g.body_scope, held))
    # to a fixed point: each function at most once (its first forwarding call in the body),
    # the calls of the jitted callables first
    changed = True
    while changed:
        changed = False
        for g, call, scope, held in candidates:
            if id(g.node) in out:
                continue
            t = ct.target(call, scope)
            if t is None:
                continue
            if t.app is not None:
                if id(t.app) not in apps:
                    continue
                mapping = _param_map(g, call, ct.bind(t, call, scope))
                if mapping is not None:
                    out[id(g.node)] = Forwarder(g, t.app, mapping, (call,), returns_result(g, held))
                    changed = True
                continue
            inner = out.get(id(t.func.node))
            if inner is None or t.func is g:
                continue
            mapping = _param_map(g, call, ct.bind(t, call, scope))
            if mapping is None:
                continue
            mapping = {gp: inner.mapping[ip] for gp, ip in mapping.items() if ip in inner.mapping}
            out[id(g.node)] = Forwarder(g, inner.app, mapping, (call,) + inner.chain, inner.returns_result and returns_result(g, held))
            changed = True
    return out
