"""Callables that are a new object each time the code that makes them runs, and the functions
that run again and again.

JAX keys its compilation cache on the function object it jits, and the cache of a static
argument (or of static pytree metadata) on its ``hash`` and ``==``; a lambda, a
``functools.partial``, a ``jax.grad`` result or a bound method compares by identity, so a new
one is a new cache entry.  Whether that costs a compilation per call depends on whether the code
that builds it runs repeatedly: inside a loop, or in a function called from one.  The slots of
a jitted call where a callable is compared that way are listed here too (``callable_slots``)."""

from __future__ import annotations

from typing import List, NamedTuple, Optional

import libcst as cst

from jaxlint.analysis.facts.memo_guards import memoised
from jaxlint.analysis.model.weak_types import single_return
from jaxlint.analysis.host.host_value import STATEFUL_OPTAX, class_hash
from jaxlint.analysis.model.classes import class_named, decorator_names, is_classmethod, is_property
from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.model.transforms import Application, arguments_by_parameter
from jaxlint.analysis.syntax.scopes import Scope

# Transforms whose result is a new function object on every evaluation.
FRESH_TRANSFORMS = frozenset(
    {"jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.hessian", "jax.vmap", "jax.checkpoint", "jax.remat"}
)
PARTIALS = frozenset({"functools.partial", "jax.tree_util.Partial"})
# optax's optimisers: a ``GradientTransformation``, a tuple of the ``init`` and ``update``
# closures the call makes, so two calls with the same settings neither hash nor compare equal.
# How far a value is followed into the functions and constructors that build it.
MAX_FACTORY_DEPTH = 3
OPTAX_OPTIMIZERS = STATEFUL_OPTAX | frozenset({"sgd", "sign_sgd", "fromage", "chain"})

def built_anew(m, expr, scope, bound_methods: bool = True):
    """(what it is, the nodes it reads) when evaluating ``expr`` makes a new callable object
    each time: a lambda, ``functools.partial(...)``, ``jax.grad(f)``, or a bound method
    ``self.method`` (each attribute access binds a new method object)."""
    if isinstance(expr, cst.Lambda):
        return "lambda", (expr,)
    if isinstance(expr, cst.Call):
        q = resolve(expr.func, scope)
        if q in PARTIALS and expr.args:
            return ("`" + q.rsplit(".", 1)[-1] + "` object"), tuple(a.value for a in expr.args)
        if q in FRESH_TRANSFORMS and expr.args:
            return f"`{q}` result", tuple(a.value for a in expr.args)
        return None
    if bound_methods and isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name):
        cls = _instance_class(m, expr.value.value, scope)
        if cls is None:
            return None
        f = m.analyzer.classes.member(cls, expr.attr.value)
        if f is None or isinstance(f.node, cst.Lambda) or _plain_function(f):
            return None
        return f"bound method `{expr.value.value}.{expr.attr.value}`", (expr.value,)
    return None


def runs_in_loop(m, func) -> Optional[cst.Call]:
    """Does ``func`` run again and again: called inside a loop of the module, or from a
    function that does (any depth), at a call that is not guarded by a memo it fills
    (``if self._fn is None: self._fn = self._build()``: once per entry)?  The call in the loop (of ``func`` or of a function that
    reaches it), or None.  By name for a function, as ``self.name(...)`` (from a method of its
    class) or ``obj.name(...)`` (``obj = Cls(...)``) for a method, as ``obj(...)`` for
    ``__call__``.  Computed once per module and function."""
    memo = m.__dict__.setdefault("_repeated_functions", {})
    if "by_name" not in memo:
        by_name = {}
        for call, scope, order in m.index.calls:
            fn = call.func
            name = fn.value if isinstance(fn, cst.Name) else fn.attr.value if isinstance(fn, cst.Attribute) else None
            if name is not None:
                by_name.setdefault(name, []).append((call, scope, order))
        memo["by_name"] = by_name
    return _repeats(m, func, memo, memo["by_name"])


def _repeats(m, func, memo, by_name) -> Optional[cst.Call]:
    key = id(func.node)
    if key in memo:
        return memo[key]
    memo[key] = None  # a cycle of calls answers "no" (until shown otherwise)
    names = [func.name]
    if func.name == "__call__":
        names = None  # called as ``obj(...)``: any name
    sites = by_name.get(func.name, ()) if names else [x for xs in by_name.values() for x in xs if isinstance(x[0].func, cst.Name)]
    sites = [x for x in sites if _calls(m, x[0], x[1], func)]
    # and every call that reaches it through another callable (``run = Runner().apply``,
    # the closure a factory returns, a partial, an instance)
    seen = {id(c) for c, _s, _o in sites}
    orders = memo.get("orders")
    if orders is None:
        orders = memo["orders"] = {id(c): o for c, _s, o in m.index.calls}
    for call, scope, _t in m.finder.call_targets.callers(func):
        if id(call) not in seen and id(call) in orders:
            sites.append((call, scope, orders[id(call)]))
    out = None
    for call, scope, order in sites:
        if memoised(m, call, scope):
            continue  # it runs once per entry of a memo the call fills
        # a loop span: a ``for``/``while`` statement's, or a comprehension's
        if any(a <= order <= b for a, b in scope.loops):
            out = call
            break
        caller = scope.func if scope.kind == "function" else None
        if caller is not None and caller is not func:
            out = _repeats(m, caller, memo, by_name)
            if out is not None:
                break
    memo[key] = out
    return out


def _calls(m, call, scope, func) -> bool:
    """Is ``call`` a call of ``func``?"""
    fn = call.func
    if isinstance(fn, cst.Name) and not func.is_method:
        return fn.value == func.name and scope.lookup_def(fn.value) is func
    if isinstance(fn, cst.Name) and func.name == "__call__":
        # ``predict(x)`` on ``predict = Predictor(...)``: its ``__call__``
        cls = _instance_class(m, fn.value, scope)
        return cls is not None and m.analyzer.classes.member(cls, "__call__") is func
    if isinstance(fn, cst.Attribute) and func.is_method and fn.attr.value == func.name and isinstance(fn.value, cst.Name):
        cls = _instance_class(m, fn.value.value, scope)
        return cls is not None and m.analyzer.classes.member(cls, func.name) is func
    return False


def _plain_function(f) -> bool:
    """staticmethod (a plain function on every access) or property (not a method object)."""
    names = decorator_names(f.node, f.scope)
    return "staticmethod" in names or is_property(f)


def _instance_class(m, name: str, scope):
    """The module class whose instance ``name`` is: ``self`` of a method, or a variable bound
    once to ``Cls(...)`` (here, or in a scope around: ``MODEL = Model(0.75)`` at module
    level)."""
    f = scope.func if scope.kind == "function" else None
    if f is not None and f.cls is not None and f.is_method and not is_classmethod(f):
        positional = f.positional_params()
        if positional and positional[0].name.value == name and len(scope.bindings.get(name, ())) == 1:
            return f.cls
    owner = scope.lookup_scope(name)
    if owner is None or name in owner.globals or name in owner.nonlocals:
        return None
    binds = owner.bindings.get(name, ())
    if len(binds) == 1 and binds[0].kind == "assign" and binds[0].order is not None and isinstance(binds[0].value, cst.Call):
        callee = binds[0].value.func
        if isinstance(callee, cst.Name):
            s = owner
            while s is not None:
                if callee.value in s.classes:
                    return s.classes[callee.value]
                if callee.value in s.bindings or callee.value in s.defs:
                    return None
                s = s.parent
    return None


# How a slot keys the cache: a static parameter; an argument of an ``eqx.filter_jit`` function
# (everything but arrays is static there); a ``jax.tree_util.Partial`` passed for a traced
# parameter (a pytree: its function is aux data, its arguments leaves).
STATIC, FILTERED, TREE_PARTIAL = "static", "filtered", "tree_partial"


class CallableSlot(NamedTuple):
    """An argument of a call of a jitted function whose callable object is part of the cache
    key: compared by ``hash`` and ``==``, which for a lambda or a partial object is identity."""

    app: Application  # the jitted function called
    arg: cst.Arg
    param: str
    scope: Scope  # where the call is made
    order: int  # the call's place in its scope
    kind: str  # how the slot keys the cache: STATIC, FILTERED or TREE_PARTIAL


def callable_slots(m) -> List[CallableSlot]:
    """Every argument that reaches a static slot of a cached jitted function: a
    ``static_argnums`` / ``static_argnames`` parameter; any argument of an ``eqx.filter_jit``
    function (a callable is not an array, so it is static there); and a
    ``jax.tree_util.Partial`` passed anywhere (a pytree whose function is static aux data)."""
    out: List[CallableSlot] = []
    seen_args = set()
    for app, arg, pname, scope, order, _call in m.static_arguments:
        seen_args.add(id(arg))
        if not app.transform.cached:
            continue
        out.append(CallableSlot(app, arg, pname, scope, order, STATIC))
    orders = {id(c): o for c, _s, o in m.index.calls}
    for app in m.finder.applications:
        if not app.transform.cached:
            continue
        _statics, opaque = m.analyzer.static_names(app)
        if opaque:
            continue
        pos = app.jit_positional()
        for call, scope in m.analyzer.call_sites_with_scopes(app):
            order = orders.get(id(call))
            if order is None:
                continue
            for a, pname in arguments_by_parameter(app, call, pos):
                if pname is None or id(a) in seen_args or a.star:
                    continue
                seen_args.add(id(a))  # one slot per argument, however many applications reach it
                if app.transform.filtered:
                    out.append(CallableSlot(app, a, pname, scope, order, FILTERED))
                elif _tree_partial(a.value, scope):
                    out.append(CallableSlot(app, a, pname, scope, order, TREE_PARTIAL))
    return out


def _tree_partial(expr, scope) -> bool:
    return isinstance(expr, cst.Call) and resolve(expr.func, scope) == "jax.tree_util.Partial"


def built_anew_for_slot(m, expr, scope, kind: str):
    """What ``expr`` is when it makes a callable object that is new on every evaluation and
    keys the cache by identity in a slot of ``kind``: a ``jax.tree_util.Partial`` is a pytree
    outside static parameters, and only its function (static aux data) counts there."""
    if _tree_partial(expr, scope) and kind != STATIC:
        inner = expr.args[0].value if expr.args and expr.args[0].keyword is None else None
        built = built_anew(m, inner, scope, bound_methods=False) if inner is not None else None
        if built is None:
            return None
        return f"`Partial` of a {built[0]}", built[1]
    return _new_key(m, expr, scope, 0)


def _new_key(m, expr, scope, depth: int, factory=None):
    """What ``expr`` makes that is a new cache key on every evaluation, or None: a callable
    built there (``built_anew``), an optax optimiser, an instance of a class of the module
    that compares by identity, or one hashed by its fields that holds such a value, also
    when a function of the module builds and returns it (``factory``: that function, whose
    own nested ``def``s are new function objects on each of its calls)."""
    if factory is not None and isinstance(expr, cst.Name) and expr.value in scope.defs and scope.func is factory:
        return f"function `{expr.value}` defined in {factory.name}()", ()
    if not isinstance(expr, cst.Call) or depth > MAX_FACTORY_DEPTH:
        return built_anew(m, expr, scope, bound_methods=False)
    args = tuple(a.value for a in expr.args)
    q = resolve(expr.func, scope)
    if q is not None and q.startswith("optax.") and q[len("optax.") :] in OPTAX_OPTIMIZERS and args:
        return f"`{q}` optimiser (a tuple of new closures)", args
    if isinstance(expr.func, cst.Name) and q is None:
        cls = class_named(scope, expr.func.value)
        if cls is not None:
            how, _why = class_hash(cls, m.analyzer.classes)
            if how == "identity":
                return f"instance of `{cls.name}` (a class without __eq__ or __hash__)", args
            if how == "fields":
                for a in expr.args:
                    inner = _new_key(m, a.value, scope, depth + 1, factory)
                    if inner is not None:
                        return f"`{cls.name}` holding a {inner[0]}", args
            return None
        f = scope.lookup_def(expr.func.value)
        if f is not None and not f.is_lambda and not f.is_method and f.body_scope is not None:
            ret = single_return(f.node)
            inner = _new_key(m, ret, f.body_scope, depth + 1, f) if ret is not None else None
            if inner is not None:
                return (inner[0] if f"{f.name}()" in inner[0] else f"{inner[0]} from {f.name}()"), args
            return None
    return built_anew(m, expr, scope, bound_methods=False)
