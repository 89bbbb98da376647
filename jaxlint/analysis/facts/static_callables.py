"""New callable objects put into the static metadata of pytree instances that are rebuilt and
passed to a jitted function again and again.

A pytree's static metadata (``eqx.field(static=True)``, ``flax.struct.field(pytree_node=
False)``, ``meta_fields``, the aux data of a custom flatten) is part of the treedef that ``jit``
and ``eqx.filter_jit`` look a call up by, and a lambda, a ``functools.partial`` or a
``jax.jit`` result compares by identity.  An instance built with a new one is a new cache key,
so each rebuilt instance compiles again, although every instance computes the same thing.

The finding needs three facts, each computed, never assumed:

* the field gets a callable that is new each time the code storing it runs, the same program
  every time: the store (``self.fn = lambda ...`` in ``__init__`` / ``__post_init__``, or the
  argument of a construction) reads nothing but module-level names and literals (a callable
  made from the constructor's arguments may differ between instances on purpose);
* a construction of the class runs repeatedly: inside a loop, in a function called in a loop,
  or in a factory function that returns it and is called in such a place; and not under an
  ``if`` there (a schedule rebuilt every hundred steps compiles every hundred steps);
* the instance it makes is passed to a call of a jitted function there (in the same loop, or
  later in the same function body).
"""

from __future__ import annotations

import builtins
from typing import List, NamedTuple, Optional, Tuple

import libcst as cst

from jaxlint.analysis.facts.fresh_callables import built_anew, runs_repeatedly
from jaxlint.analysis.facts.static_metadata import argument_for, self_assignments
from jaxlint.analysis.model.classes import class_named
from jaxlint.analysis.model.transforms import arguments_by_parameter
from jaxlint.analysis.syntax.functions import free_names
from jaxlint.analysis.syntax.scopes import ClassInfo, Scope
from jaxlint.analysis.syntax.statement_paths import conditional, scope_body, statement_path
from jaxlint.analysis.syntax.nodes import simple_statements

FACTORY_DEPTH = 2  # factories of factories followed


class FreshStaticCallable(NamedTuple):
    cls: ClassInfo
    field: str
    # where the new callable is put into the field: ``self.attr`` of the constructor's
    # assignment, or the argument of the construction
    store: cst.CSTNode
    what: str  # "lambda", "`partial` object", ...
    construction: cst.Call  # the construction that runs repeatedly (or the factory call)
    passed_to: cst.Call  # the jitted call the instance reaches
    repeated_by: Optional[cst.Call]  # the call in a loop that runs the construction's function


def fresh_static_callables(m) -> List[FreshStaticCallable]:
    classes = m.analyzer.classes
    out: List[FreshStaticCallable] = []
    for cls in m.index.classes:
        fields = classes.metadata_declarations(cls)
        if not fields:
            continue
        for name in fields:
            stored = _stored_by_constructor(m, cls, name)
            for call, scope in m.index.calls_of(cls.name):
                if class_named(scope, call.func.value) is not cls:
                    continue
                store = stored
                if store is None:
                    arg = argument_for(classes, cls, call, name)
                    what = _fresh(m, arg, scope) if arg is not None else None
                    store = (next(a for a in call.args if a.value is arg), what) if what is not None else None
                if store is None:
                    continue
                rebuilt = _rebuilt_for_jit(m, call, scope, 0)
                if rebuilt is None:
                    continue
                out.append(FreshStaticCallable(cls, name, store[0], store[1], *rebuilt))
                if stored is not None:
                    break  # one finding at the store in the constructor
    return out


def _stored_by_constructor(m, cls: ClassInfo, field: str) -> Optional[Tuple[cst.CSTNode, str]]:
    """(value, what) when ``__init__`` / ``__post_init__`` puts a new callable into ``field``."""
    for method in ("__init__", "__post_init__"):
        f = m.analyzer.classes.member(cls, method)
        if f is None or f.body_scope is None:
            continue
        for target, value in self_assignments(f):
            if target == field:
                what = _fresh(m, value, f.body_scope)
                if what is not None:
                    # the ``self.attr`` it is assigned to (``object.__setattr__`` is no assignment)
                    return next((w.node for w in m.index.attribute_writes if w.value is value), value), what
    return None


def _fresh(m, expr, scope: Scope) -> Optional[str]:
    """What ``expr`` is when each evaluation makes a new callable that computes the same thing
    every time (it reads only module-level names and literals); None otherwise."""
    built = built_anew(m, expr, scope, bound_methods=False)
    if built is not None:
        what, reads = built
    elif isinstance(expr, cst.Name) and scope.kind == "function" and expr.value in scope.defs and scope.func is not None:
        f = scope.sole_def(expr.value)
        if f is None:
            return None
        what, reads = f"function `{expr.value}` defined in {scope.func.name}()", (f.node,)
    else:
        return None
    return what if all(_reads_only_module_names(m, r, scope, m.index.module_scope) for r in reads) else None


def _reads_only_module_names(m, node, scope: Scope, module: Scope) -> bool:
    for n in free_names(m.index, node):
        owner = scope.lookup_scope(n)
        if owner is None:
            if not hasattr(builtins, n):
                return False
        elif owner is not module:
            return False
    return True


def _rebuilt_for_jit(m, call: cst.Call, scope: Scope, depth: int):
    """(construction, jitted call, call in a loop or None) when ``call`` runs repeatedly and
    the instance it makes reaches a jitted call there; None when that cannot be shown."""
    order = m.call_sites.order(call)
    if order is None:
        return None
    path = statement_path(scope_body(m.module, scope), call, m.spans)
    if path is None or conditional(path):
        return None  # built only now and then (``if step % 100 == 0:``): not shown per call
    names = {n for n, binds in scope.bindings.items() if any(b.value is call for b in binds)}
    loops = [lp for lp in scope.loops if lp[0] <= order <= lp[1]]
    if loops:
        start, end = max(loops)
        for lc in m.looped_calls:
            if lc.scope is scope and start <= lc.order <= end:
                for a, pname in lc.arguments():
                    if pname is not None and _is_instance(a.value, call, names):
                        return call, lc.call, None
    elif scope.kind == "function" and scope.func is not None:
        passed = _jitted_call_after(m, scope, order, call, names)
        if passed is not None:
            repeated_by = runs_repeatedly(m, scope.func)
            if repeated_by is not None:
                return call, passed, repeated_by
    if depth < FACTORY_DEPTH and scope.kind == "function" and scope.func is not None and _returned(scope.func, call, names):
        # a factory: each of its calls makes a new instance
        for fcall, fscope, _t in m.finder.call_targets.callers(scope.func):
            found = _rebuilt_for_jit(m, fcall, fscope, depth + 1)
            if found is not None:
                return found
    return None


def _jitted_call_after(m, scope: Scope, order: int, call: cst.Call, names) -> Optional[cst.Call]:
    """A call of a jitted function in ``scope`` after ``order`` that passes the instance."""
    for app in m.finder.applications:
        if not app.transform.cached:
            continue
        for c, s in m.analyzer.call_sites_with_scopes(app):
            o = m.call_sites.order(c)
            if s is not scope or o is None or o < order:
                continue
            for a, pname in arguments_by_parameter(app, c, app.jit_positional()):
                if pname is not None and _is_instance(a.value, call, names):
                    return c
    return None


def _is_instance(expr, call, names) -> bool:
    return expr is call or isinstance(expr, cst.Name) and expr.value in names


def _returned(func, call, names) -> bool:
    """Does the function return the instance (``return Cls(...)`` or a name bound to it)?"""
    if func.is_lambda:
        return False
    for small in simple_statements(func.node.body):
        if isinstance(small, cst.Return) and small.value is not None and _is_instance(small.value, call, names):
            return True
    return False
