"""How each call of a jitted callable passes each parameter: by position or by keyword.

``jax.jit`` (and ``nnx.jit``) key their cache on the positional arguments and the keyword
arguments separately: ``step(x, lr)`` and ``step(x, lr=lr)`` are two entries, so the second
call traces and compiles again although the values are the same (checked with jax 0.10.2 and
flax 0.12).  The order of keywords does not matter.  ``equinox.filter_jit`` binds the
arguments to the signature first and is not affected.

A ``functools.partial`` (or ``jax.tree_util.Partial``) of the jitted callable counts as a call
for the arguments it binds: ``partial(step, lr=lr)(x)`` passes ``lr`` by keyword, and so does
every call of ``fast = partial(step, lr=lr)``: ``fast(x)``, where it runs.

Conventions are compared between the calls of one scope (one function body, or the module's
top level), and across the scopes of the module when the jitted callable is one object for the
whole module: a ``jax.jit`` applied at the module's top level or in a class body there (a
decorator, ``step = jax.jit(f)``).  Its cache lives as long as that object, so a call by
position in ``train`` and one by keyword in ``evaluate`` are two entries whenever both run, in
whatever order.  A jit made inside a function is made again each time the function runs: of a
function defined there, a new cache each time; of a module-level function, JAX may share the
function's cache between the jits.  Not provably one cache, its calls are compared only within
the scope that calls it.  Across scopes, the
first call of each scope is compared with the first call of the module (in the file's order)
that passes the parameter, and reported when it passes it the other way.

Only calls made from host code count: a call inside a traced function is traced with it, once
per compilation of the outer function, and is not a compilation of its own.  Only calls whose
arguments can all be read count: a call with ``*args`` or ``**kwargs`` could pass any
parameter either way and is left out.  Computed once per module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.syntax.nodes import is_none_literal
from jaxlint.analysis.syntax.scopes import Scope
from jaxlint.analysis.model.transforms import Application, TransformFinder, arguments_by_parameter
from jaxlint.analysis.model.names import PARTIAL, resolve


@dataclass(frozen=True)
class ConventionChange:
    app: Application  # the jitted callable
    param: str  # the parameter passed both ways
    first: cst.CSTNode  # what passes it at the first call (in the module's order)
    arg: cst.CSTNode  # what passes it the other way at a later call: the argument, or the call of a partial object that bound it
    call: cst.Call  # that later call
    scope: Scope
    by_keyword: bool  # how ``arg`` passes it
    # the scope of ``first`` when it is another one (the jitted callable is the module's)
    first_scope: Optional[Scope] = None


# {parameter: (the node that passes it, by keyword)}
Conventions = Dict[str, Tuple[cst.CSTNode, bool]]


def _conventions(app: Application, call: cst.Call, partial_of: bool) -> Optional[Conventions]:
    """How a call (or a partial) whose arguments are all readable passes each parameter;
    None otherwise."""
    args = list(call.args)
    if any(a.star for a in args):
        return None
    if partial_of:
        args = args[1:]  # partial(step, ...): the callable first
        call = call.with_changes(args=args)
    positional = app.jit_positional()
    out: Conventions = {}
    for a, pname in arguments_by_parameter(app, call, positional):
        if pname is not None and pname in positional:
            out[pname] = (a, a.keyword is not None)
    return out


def _conventions_through_partial(app: Application, call: cst.Call, scope: Scope, target, call_targets) -> Optional[Conventions]:
    """How a call of a partial object of the jitted callable (``fast = partial(step,
    rate=0.1)``, then ``fast(x)``) passes each parameter: the partial's keywords by keyword, its
    positional arguments by position, the call's own arguments as written.  The ones the
    partial bound are reported at the call, where the compilation happens."""
    bound = call_targets.bind(target, call, scope)
    if bound is None:
        return None
    positional = app.jit_positional()
    own = {id(a.value): a for a in call.args}
    by_name = {k for k, _ in target.keywords}
    out: Conventions = {}
    for pname, passed in bound.items():
        if pname not in positional or passed.expr is None:
            continue
        a = own.get(id(passed.expr)) if passed.call is call else None
        out[pname] = (a, a.keyword is not None) if a is not None else (call, pname in by_name)
    return out


def convention_changes(index, finder: TransformFinder, analyzer) -> List[ConventionChange]:
    order = {id(c): i for i, (c, _s, _o) in enumerate(index.calls)}
    partial_sites = None
    out: List[ConventionChange] = []
    for app in finder.applications:
        t = app.transform
        if not t.cached or t.filtered:
            continue  # equinox binds arguments to the signature before it keys its cache
        sites: List[Tuple[int, cst.Call, Scope, bool]] = []
        for call, scope in analyzer.call_sites_with_scopes(app):
            if not finder.in_traced_code(scope):
                sites.append((order.get(id(call), 1 << 30), call, scope, False))
        if partial_sites is None:
            partial_sites = [(c, s) for c, s, _o in index.calls if c.args and resolve(c.func, s) in PARTIAL and not finder.in_traced_code(s)]
        for call, scope in partial_sites:
            if _is_the_jitted(call.args[0].value, scope, app, finder):
                sites.append((order.get(id(call), 1 << 30), call, scope, True))
        known = {id(c) for _o, c, _s, _p in sites}
        # a partial made in the scope of its calls is judged where it is made
        made_here = {(id(a.value), id(s)) for _o, c, s, p in sites if p for a in c.args}
        called_here: set = set()  # the partials of ``made_here`` called in their own scope
        through: Dict[int, Conventions] = {}
        for call, scope, target in finder.call_targets.app_callers(app):
            bound = [p.expr for p in target.bound] + [p.expr for _k, p in target.keywords]
            here = {(id(e), id(scope)) for e in bound} & made_here
            if here:
                called_here |= here
                continue
            if bound and id(call) not in known and not finder.in_traced_code(scope):
                conv = _conventions_through_partial(app, call, scope, target, finder.call_targets)
                if conv is not None:
                    through[id(call)] = conv
                    sites.append((order.get(id(call), 1 << 30), call, scope, False))
        if len(sites) < 2:
            continue
        sites.sort(key=lambda s: s[0])
        shared = _one_object_per_module(app)
        first: Dict[Tuple[int, object, str], Tuple[cst.CSTNode, bool]] = {}
        module_first: Dict[str, Tuple[cst.CSTNode, bool, Scope]] = {}
        for _o, call, scope, partial_of in sites:
            conv = through.get(id(call)) or _conventions(app, call, partial_of)
            if conv is None:
                continue
            # a partial made here but called in another scope passes nothing here: its calls
            # are judged where they are made
            calls_here = not partial_of or any((id(a.value), id(scope)) in called_here for a in call.args)
            # a jit made anew on each run of its maker: calls through different objects (two
            # results of one factory) have different caches
            obj = None if shared else _object_of(call.args[0].value if partial_of else call.func, scope)
            for pname, (node, by_keyword) in conv.items():
                seen = first.get((id(scope), obj, pname))
                if seen is None:
                    first[(id(scope), obj, pname)] = (node, by_keyword)
                    if not shared or not calls_here:
                        continue
                    other = module_first.setdefault(pname, (node, by_keyword, scope))
                    if other[2] is not scope and other[1] != by_keyword and not _other_structure(other[0], other[2], node, scope):
                        out.append(ConventionChange(app, pname, other[0], node, call, scope, by_keyword, other[2]))
                elif seen[1] != by_keyword and not _other_structure(seen[0], scope, node, scope):
                    out.append(ConventionChange(app, pname, seen[0], node, call, scope, by_keyword))
    return out


def _one_object_per_module(app: Application) -> bool:
    """Is the jitted callable made once for the module: applied at its top level or in the
    body of a class defined there, to a function rather than to a bound method?"""
    if app.bound_self:
        return False  # ``jax.jit(self.step)``: one object per instance
    s = app.site_scope
    while s is not None and s.kind == "class":
        s = s.parent
    return s is not None and s.kind == "module"


def _object_of(callee, scope: Scope):
    """What tells apart the objects a callee expression may hold: the bindings of a name (one
    factory call is one object, two are two); None for any other callee."""
    if isinstance(callee, cst.Name):
        owner = scope.lookup_scope(callee.value)
        if owner is not None:
            return tuple(id(b.value) if b.value is not None else b.order for b in owner.bindings.get(callee.value, ()))
    return None


def _is_the_jitted(expr, scope: Scope, app: Application, finder: TransformFinder) -> bool:
    """Is ``expr`` (the first argument of a ``partial``) the jitted callable ``app``?"""
    t = finder.call_targets.value(expr, scope)
    return t is not None and t.app is app and not t.bound and not t.keywords


def _other_structure(first: cst.CSTNode, first_scope: Scope, later: cst.CSTNode, scope: Scope) -> bool:
    """Does one call pass ``None`` where the other passes a value that is surely not None?  A
    ``None`` leaf and an array are different pytree structures: the two calls compile
    separately however they pass it, and the convention costs nothing more."""
    a = first.value if isinstance(first, cst.Arg) else None
    b = later.value if isinstance(later, cst.Arg) else None
    if a is None or b is None:
        return False
    if is_none_literal(a):
        return _surely_not_none(b, scope)
    return is_none_literal(b) and _surely_not_none(a, first_scope)


def _surely_not_none(expr, scope: Scope) -> bool:
    """A literal, a container, an operation, or a parameter bound only as such, whose annotation
    (``cos_zenith: float``) leaves no room for None and whose default is not None."""
    if isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.List, cst.Tuple, cst.Dict, cst.BinaryOperation)):
        return True
    if not isinstance(expr, cst.Name) or scope.kind != "function" or scope.func is None:
        return False
    if not scope.unrebound_param(expr.value):
        return False
    param = scope.func.param(expr.value)
    if param is None or param.annotation is None or param.default is not None and is_none_literal(param.default):
        return False
    # one plain type (``float``, ``jnp.ndarray``); a union, ``Optional[...]``, ``Any`` or
    # ``object`` may hold None
    t = param.annotation.annotation
    last = t.value if isinstance(t, cst.Name) else t.attr.value if isinstance(t, cst.Attribute) else None
    return last is not None and last not in ("Any", "object", "None")
