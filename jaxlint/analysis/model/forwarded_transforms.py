"""A transform applied by a function on the values its caller gives it.

``def make_plxpr(func, static_argnums=None): return jax.make_jaxpr(func, static_argnums=
static_argnums)`` applies ``jax.make_jaxpr`` anew at every call, with that call's function and
static spec: ``make_plxpr(f, static_argnums=0)`` is ``jax.make_jaxpr(f, static_argnums=0)``, and
what it returns is called as that callable is.  The transform itself may be a parameter too
(``def variant_of(variant): return variant(step, static_argnums=(1,))`` called with ``jax.jit``).
Read so, one call site's spec never blurs with another's, and each call's result is the jitted
callable its caller uses.

A function is read as such a forwarder when it is a function or a method (not traced, not
decorated), every ``return`` gives the transform's result (the call itself or a name bound
only to it), the transform returns a callable to be called later (not a lax primitive, not
``eval_shape``), and its every use in the module is a call (by its name; for a method,
through ``self`` or a name bound once to an instance of its class) or a decorator, so that no
call is missed; its ``*args`` hands on nothing at a call that fills only its named
parameters.  Otherwise the transform is read where it is written, as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, NamedTuple, Optional, Tuple

import libcst as cst

from jaxlint.analysis.model.classes import class_named, is_classmethod
from jaxlint.analysis.model.transform_arguments import literal_binding
from jaxlint.analysis.model.transform_table import Transform
from jaxlint.analysis.syntax.functions import _undecorated, possible_returns
from jaxlint.analysis.syntax.nodes import STARRED, argument_for, named_params
from jaxlint.analysis.syntax.scopes import FuncInfo, Scope

if TYPE_CHECKING:
    from jaxlint.analysis.model.transforms import TransformFinder


class Forwarded(NamedTuple):
    """The transform one call of a forwarder applies: at ``site`` (the forwarder's call, in
    ``scope``), with the arguments as that call makes them, each with the scope to read it in."""

    site: cst.Call
    scope: Scope
    transform: Transform
    args: List[Tuple[cst.Arg, Scope]]


_MISSING = object()


def forwarded_applications(finder: "TransformFinder", call: cst.Call, found, scope: Scope) -> Optional[List[Forwarded]]:
    """The applications the calls of the forwarder around ``call`` make (``found``: the
    transform ``call`` applies and the arguments a partial bound to it, or None when its callee
    is a parameter); None when ``call`` is not in a forwarder, or a call of it is not read."""
    f = scope.func if scope.kind == "function" else None
    if f is None or f.is_lambda or found is None and type(call.func) is not cst.Name:
        return None  # no transform, and no call of a parameter
    params: Dict[str, cst.Param] = {p.name.value: p for p in named_params(f.params)}
    star_kwarg = f.params.star_kwarg.name.value if isinstance(f.params.star_kwarg, cst.Param) else None
    callee_param = isinstance(call.func, cst.Name) and call.func.value in params
    if found is None and not callee_param:
        return None
    if not callee_param and not any(_forwards(a, params, star_kwarg) for a in call.args):
        return None  # it applies the transform to what it has itself: read where it is written
    # asked last: it reads every return of the function, for each call that got this far
    if _forwarder(finder, call, scope) is None:
        return None
    positional = [p.name.value for p in f.positional_params()][1 if f.is_method else 0 :]
    calls = _calls(finder, f)
    if not calls:
        return None  # also used as a value: its calls are not all seen
    star_arg = f.params.star_arg.name.value if isinstance(f.params.star_arg, cst.Param) else None
    out: List[Forwarded] = []
    for c, s in calls:
        # the forwarder's ``*args`` hands on nothing when the call fills no more than its
        # named positional parameters
        empty_star = not any(a.star for a in c.args) and sum(1 for a in c.args if a.keyword is None) <= len(positional)

        def passed(name: str):
            arg = argument_for(c, positional, name)
            if arg is STARRED:
                return None
            if arg is None:
                default = params[name].default
                return (literal_binding(default, f.scope), f.scope) if default is not None else _MISSING
            return literal_binding(arg.value, s), s

        if callee_param:
            given = passed(call.func.value)
            if given is None or given is _MISSING:
                return None
            applied = finder.transform_of(given[0], given[1])
            if applied is None:
                return None
            t, extra = applied
            args = [(a, given[1]) for a in extra]
        else:
            t, extra = found
            args = [(a, scope) for a in extra]
        if t.arity is not None or t.calls_at_site:
            return None  # applied on the spot: the forwarder's call is no call of its result
        for a in call.args:
            if a.star == "**" and isinstance(a.value, cst.Name) and a.value.value == star_kwarg:
                # the caller's keywords the forwarder does not take go on to the transform
                if any(ca.star for ca in c.args):
                    return None
                args.extend((ca, s) for ca in c.args if ca.keyword is not None and ca.keyword.value not in params)
                continue
            if a.star == "*" and empty_star and isinstance(a.value, cst.Name) and a.value.value == star_arg:
                continue  # the forwarder's ``*args``, empty at this call
            if a.star:
                return None
            if isinstance(a.value, cst.Name) and a.value.value in params:
                given = passed(a.value.value)
                if given is None or given is _MISSING:
                    return None
                args.append((cst.Arg(value=given[0], keyword=a.keyword), given[1]))
            else:
                args.append((a, scope))
        out.append(Forwarded(c, s, t, args))
    return out


def _calls(finder: "TransformFinder", f: FuncInfo) -> Optional[List[Tuple[cst.Call, Scope]]]:
    """Every call of the forwarder ``f``, when every use of it is one (or a decorator, which
    hands it a def it does not forward): a function by its name; a method through ``self`` in
    a method of its class, or through a name bound once to an instance of its class, when no
    other def of the module has its name (``self.run(...)`` may reach an override).  None
    when some use is not such a call, or there is no call."""
    targets = finder.call_targets
    if not f.is_method:
        calls = [(c, s) for c, s in finder.index.calls_of(f.name) if s.lookup_def(f.name) is f]
        if not calls:
            return None  # no call to read (asked before counting the name's every mention)
        decorating = sum(
            1
            for g in finder.index.functions
            for d in ([] if g.is_lambda else g.node.decorators)
            if isinstance(d.decorator, cst.Name) and d.decorator.value == f.name and g.scope.lookup_def(f.name) is f
        )
        return calls if targets.mentions(f.scope, f.name) == len(calls) + decorating + 1 else None
    if sum(1 for g in finder.index.functions if g.name == f.name) != 1:
        return None
    calls = finder.index.calls_of("." + f.name)
    if not calls:
        return None
    if targets.attribute_mentions(f.name) != len(calls):
        return None
    for c, s in calls:
        if not isinstance(c.func.value, cst.Name) or _instance_class(c.func.value.value, s) is not f.cls:
            return None
    return calls


def _instance_class(name: str, scope: Scope):
    """The class of the module whose instance ``name`` holds where ``scope`` reads it:
    ``self`` of a method, or a name bound once to a call of the class; None if unknown.  Not
    the receiver model's answer: forwarders are read while the transform finder is still
    collecting the applications that model's answers about jitted results depend on."""
    g = scope.func if scope.kind == "function" else None
    if g is not None and g.is_method and g.receiver == name and scope.unrebound_param(name) and not is_classmethod(g):
        return g.cls
    found = scope.sole_binding(name)
    if found is None or not isinstance(found[0], cst.Call) or not isinstance(found[0].func, cst.Name):
        return None
    return class_named(found[1], found[0].func.value, sole=True)


def _forwards(a: cst.Arg, params: Dict[str, cst.Param], star_kwarg: Optional[str]) -> bool:
    """The argument hands on one of the forwarder's parameters."""
    if not isinstance(a.value, cst.Name):
        return False
    return a.value.value == star_kwarg if a.star == "**" else not a.star and a.value.value in params


def _forwarder(finder: "TransformFinder", call: cst.Call, scope: Scope) -> Optional[FuncInfo]:
    """The plain function whose every ``return`` gives ``call``'s result, if ``call`` is in one."""
    if scope.kind != "function" or scope.func is None:
        return None
    f = scope.func
    if f.is_lambda or not _undecorated(f) or is_classmethod(f) or f.body_scope is not scope or finder.in_traced_code(scope):
        return None
    for r in possible_returns(f.node):
        if r is call:
            continue
        if not isinstance(r, cst.Name):
            return None
        b = scope.assigned_once(r.value)
        if b is None or b.value is not call:
            return None
    return f
