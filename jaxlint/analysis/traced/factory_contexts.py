"""The callables a factory is given, per abstract signature: ``def make_step(loss_fn): def
step(w, x, y): return loss_fn(w * x, y); return jax.jit(step)`` called as ``make_step(mse)``
and as ``make_step(xent)`` traces ``step`` once with ``loss_fn`` being ``mse`` and once with it
being ``xent``.  The call sites disagree, so no single value of ``loss_fn`` holds at every
one of them; each result of the factory still knows its own.

A traced function defined in a host function (the factory) is interpreted once per distinct
set of callables the factory's visible calls bind to its parameters, not once per call site:
calls that pass the same function (and a partial binding arguments of the same abstract
values) share one interpretation.  Where the transform is applied to the factory's call
itself (``jax.jit(make_step(mse))``), that call alone says what the parameters hold.

A parameter whose value is not a function of the module (a number, an unknown callable, a
nested def of another factory) is left out: it stays what the interpreter makes of it
without this (what every call passes, or unknown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, NamedTuple, Optional, Tuple

import libcst as cst

from jaxlint.analysis.model.callee_values import Passed, Target
from jaxlint.analysis.model.transforms import Application, FnRef
from jaxlint.analysis.syntax.scopes import FuncInfo, Scope
from jaxlint.analysis.traced.from_host import host_val
from jaxlint.analysis.traced.values import UNKNOWN_VAL, signature

if TYPE_CHECKING:  # pragma: no cover
    from jaxlint.analysis.traced.calls import Analyzer

# Distinct signatures interpreted per traced function; past this the callables stay unknown.
MAX_CONTEXTS = 8


class OuterCallables(NamedTuple):
    """What the parameters of the factory around a traced function hold in one abstract
    signature: ``fns`` maps (id of the factory's body scope, parameter) to a function value
    (FnRef, closure, bound arguments, bound keywords); ``key`` is the signature, part of the
    memo key of every call interpreted under it."""

    key: tuple
    fns: Dict[Tuple[int, str], tuple]


def callable_value(analyzer: "Analyzer", t: Target) -> Optional[tuple]:
    """The function value traced code calls for the host callable ``t`` (a plain function of
    the module, a ``functools.partial`` of one, or a method bound to an object of the module),
    with what a partial bound evaluated as the host code computed it.  None for what the
    interpreter cannot call from here: a jitted callable, or a nested def of another factory
    (it reads that factory's locals, which no frame holds)."""
    if t.app is not None or t.closure is not None:
        return None
    ref = FnRef(t.func)
    passed = list(t.bound)
    if t.func.is_method:
        if not passed or passed[0].expr is not None or passed[0].receiver is None:
            return None  # not bound to an object: what its first argument is, is not shown
        # the object the method is bound to is a Python object, not traced (as ``jax.jit(obj.method)``)
        ref.bound_self = True
        ref.receiver_cls = passed.pop(0).receiver
    elif t.func.scope.kind != "module":
        return None
    hv = analyzer.host_values
    # A partial's arguments were computed by host code when it was made: concrete values,
    # not traced by whatever later traces the call.
    bound = [host_val(hv.value(p.expr, p.scope, p.call)) if p.expr is not None else UNKNOWN_VAL for p in passed]
    keywords = {k: host_val(hv.value(p.expr, p.scope, p.call)) if p.expr is not None else UNKNOWN_VAL for k, p in t.keywords}
    return (ref, None, bound, keywords)


def _fn_key(fn: tuple) -> tuple:
    """The abstract signature of a function value: which def, bound how, and the abstract
    values of what a partial bound."""
    ref, _closure, bound, keywords = fn
    return (
        id(ref.func.node),
        ref.bound_self,
        id(ref.receiver_cls) if ref.receiver_cls is not None else 0,
        tuple(signature(v) for v in bound),
        tuple(sorted((k, signature(v)) for k, v in keywords.items())),
    )


def _factory_of(f: FuncInfo, analyzer: "Analyzer") -> Optional[FuncInfo]:
    """The host function ``f`` is defined in (a factory), or None."""
    s = f.scope
    g = s.func if s is not None and s.kind == "function" else None
    if g is None or g.is_lambda or g.body_scope is None or analyzer.finder.is_traced_def(g):
        return None
    return g


def _made_by(app: Application, factory: FuncInfo, analyzer: "Analyzer") -> Optional[Tuple[cst.Call, Scope]]:
    """The call of ``factory`` the transform is applied to (``jax.jit(make_step(mse))``, or a
    name bound once to that call), when the site shows it."""
    site = app.site
    if not isinstance(site, cst.Call) or not site.args or site.args[0].keyword is not None or site.args[0].star:
        return None
    expr, scope = site.args[0].value, app.site_scope
    for _ in range(3):
        if isinstance(expr, cst.Call):
            t = analyzer.finder.call_targets.target(expr, scope)
            return (expr, scope) if t is not None and t.func is factory and t.app is None else None
        found = scope.sole_binding(expr.value) if isinstance(expr, cst.Name) else None
        if found is None:
            return None
        expr, scope = found
    return None


def _context(analyzer: "Analyzer", factory: FuncInfo, binding: Dict[str, Passed]) -> Optional[OuterCallables]:
    """The callables one call's binding puts on the factory's parameters; None when none is a
    function the interpreter can follow."""
    ct = analyzer.finder.call_targets
    names = [p.name.value for p in factory.positional_params() + list(factory.params.kwonly_params)]
    fns: Dict[Tuple[int, str], tuple] = {}
    keys = []
    for name in names:
        p = binding.get(name)
        if p is None or p.expr is None or p.scope is None:
            continue
        if any(b.kind != "param" for b in factory.body_scope.bindings.get(name, ())):
            continue  # rebound in the factory: the closure reads the last value, not this one
        v = ct.value(p.expr, p.scope)
        fn = callable_value(analyzer, v) if isinstance(v, Target) else None
        if fn is None:
            continue
        fns[(id(factory.body_scope), name)] = fn
        keys.append((name, _fn_key(fn)))
    if not fns:
        return None
    return OuterCallables((id(factory.node), tuple(keys)), fns)


def factory_contexts(analyzer: "Analyzer", app: Application) -> List[Optional[OuterCallables]]:
    """The signatures to interpret ``app``'s function under: one per distinct set of callables
    the factory around it is given, ``[None]`` (no callables known) when there is none."""
    factory = _factory_of(app.func, analyzer)
    if factory is None:
        return [None]
    ct = analyzer.finder.call_targets
    made = _made_by(app, factory, analyzer)
    if made is not None:
        call, scope = made
        t = ct.target(call, scope)
        binding = ct.bind(t, call, scope) if t is not None else None
        return [_context(analyzer, factory, binding) if binding is not None else None]
    out: Dict[tuple, OuterCallables] = {}
    for call, scope, t in ct.callers(factory):
        binding = ct.bind(t, call, scope)
        c = _context(analyzer, factory, binding) if binding is not None else None
        if c is not None:
            out.setdefault(c.key, c)
    if not out or len(out) > MAX_CONTEXTS:
        return [None]
    return list(out.values())
