"""Calls a traced function makes on objects it does not receive as arguments.

``model(x)`` / ``model.encode(x)`` / ``self.model(x)`` inside a traced function, where ``model``
(or ``self``) comes from the closure, a global, or the Python object a bound method is bound to:
the object exists outside the trace.  The traced function's own body is searched, with nested
functions and lambdas, and the module's plain functions it calls by name (a few levels deep),
so that a helper that reads a global is seen from the entry point that traces it.
"""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Set

import libcst as cst

from jaxlint.analysis.syntax.fast_walk import FastVisitor
from jaxlint.analysis.syntax.module_index import ModuleIndex
from jaxlint.analysis.syntax.nodes import parameter_names, target_names
from jaxlint.analysis.syntax.scopes import FuncInfo, Scope
from jaxlint.analysis.model.classes import decorator_names
from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.model.nnx_state import LIFTED, NNX_LIFTED
from jaxlint.analysis.model.transforms import Application, TransformFinder

_HELPER_DEPTH = 2



class CapturedCall:
    """One call on an outside object: the object expression and the method called on it
    (``__setattr__`` for an assignment to one of its attributes, ``call`` then being the
    assignment's target; ``LIFTED`` for an object passed to an NNX lifted transform)."""

    __slots__ = ("call", "obj", "method", "scope")

    def __init__(self, call: cst.CSTNode, obj: cst.BaseExpression, method: str, scope: Scope):
        self.call = call
        self.obj = obj  # ``model`` in ``model(x)`` and in ``model.encode(x)``; ``self.model``...
        self.method = method  # "__call__" for ``model(x)``
        self.scope = scope  # where the call is, to resolve the object's names from


class _Body(FastVisitor):
    """The calls of one function body, the attributes it assigns (``obj.a = v``,
    ``obj.a.b += v``), and the names its lambdas and comprehensions bind."""

    def __init__(self):
        self.calls: List[cst.Call] = []
        self.stores: List[cst.BaseExpression] = []  # attribute targets, and items of attributes
        self.local: Set[str] = set()

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        _stores(node.target, self.stores)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        _stores(node.target, self.stores)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            _stores(node.target, self.stores)

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self.local.update(parameter_names(node.params))

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self.local.update(target_names(node.target))


def _stores(target, out: List[cst.BaseExpression]) -> None:
    if isinstance(target, cst.Attribute) or isinstance(target, cst.Subscript) and isinstance(target.value, cst.Attribute):
        out.append(target)
    elif isinstance(target, (cst.Tuple, cst.List)):
        for el in target.elements:
            _stores(el.value, out)
    elif isinstance(target, cst.StarredElement):
        _stores(target.value, out)


def _bound_object(app: Application) -> Optional[cst.BaseExpression]:
    """``model`` of ``jax.vmap(model.render)``: the object a transformed bound method is bound to."""
    if not app.bound_self or not isinstance(app.site, cst.Call) or not app.site.args:
        return None
    fn = app.site.args[0].value
    return fn.value if isinstance(fn, cst.Attribute) and fn.attr.value == app.func.name else None


def _head(e) -> Optional[cst.Name]:
    while isinstance(e, cst.Attribute):
        e = e.value
    return e if isinstance(e, cst.Name) else None


class CapturedCalls:
    """Calls on outside objects, per traced entry point of a module."""

    def __init__(self, index: ModuleIndex, finder: TransformFinder):
        self.index = index
        self.finder = finder
        self._scope_of: Optional[Dict[int, Scope]] = None
        self._stores_in: Optional[Dict[int, Scope]] = None

    def _call_scope(self, call: cst.Call) -> Optional[Scope]:
        if self._scope_of is None:
            self._scope_of = {id(c): s for c, s, _ in self.index.calls}
        return self._scope_of.get(id(call))

    def of(self, app: Application) -> Iterator[CapturedCall]:
        f = app.func
        outside_self = None
        positional = f.positional_params()
        if f.is_method and positional and self._self_is_python_object(app):
            outside_self = positional[0].name.value
        seen: Set[int] = set()
        obj = _bound_object(app)
        if obj is not None and decorator_names(f.node, f.scope) & NNX_LIFTED:
            # ``jax.vmap(model.render)`` of a method under ``@nnx.jit``: the call of the bound
            # method hands ``model`` to that transform
            yield CapturedCall(app.site, obj, f.name, app.site_scope)
        yield from self._walk(f, outside_self, seen, 0)

    def _self_is_python_object(self, app: Application) -> bool:
        """``jax.jit(self.step)`` or ``static_argnums=0``: ``self`` is not traced, it is the
        object itself, from outside the trace."""
        if app.bound_self:
            return True
        first = app.func.positional_params()[0].name.value
        return any(n == first for n, _ in app.statics.names) or any(i == 0 for i, _ in app.statics.nums)

    def _walk(self, f: FuncInfo, outside_self: Optional[str], seen: Set[int], depth: int) -> Iterator[CapturedCall]:
        if id(f.node) in seen:
            return
        seen.add(id(f.node))
        body = _Body()
        body.walk(f.node.body)
        if f.is_lambda:
            body.local.update(f.all_param_names())
        for call in body.calls:
            scope = self._call_scope(call)
            if scope is None:
                continue
            func = call.func
            if isinstance(func, cst.Call) and resolve(func.func, scope) in NNX_LIFTED:
                # ``nnx.grad(loss)(model)``: the lifted transform takes its arguments' state
                for a in call.args:
                    arg_head = _head(a.value)
                    if arg_head is not None and arg_head.value not in body.local and (
                        arg_head.value == outside_self or self._captured(arg_head.value, scope, f)
                    ):
                        yield CapturedCall(call, a.value, LIFTED, scope)
                continue
            head = _head(func)
            if head is None or head.value in body.local:
                continue
            if head.value == outside_self:
                pass
            elif not self._captured(head.value, scope, f):
                if isinstance(func, cst.Name) and depth < _HELPER_DEPTH:
                    helper = scope.lookup_def(func.value)
                    if helper is not None and not helper.is_method and not self.finder.is_traced_def(helper):
                        yield from self._walk(helper, None, seen, depth + 1)
                continue
            if isinstance(func, cst.Attribute):
                yield CapturedCall(call, func.value, func.attr.value, scope)
            yield CapturedCall(call, func, "__call__", scope)
        for target in body.stores:
            # ``obj.a = v`` sets an attribute of ``obj``, ``obj.a.b = v`` one of ``obj.a``, and
            # ``obj.a[i] = v`` an item of ``obj.a``: the object written is the one before the last step
            attr = target.value if isinstance(target, cst.Subscript) else target
            head = _head(attr)
            scope = self._store_scope(target)
            if head is None or head.value in body.local or scope is None:
                continue
            if head.value == outside_self or self._captured(head.value, scope, f):
                yield CapturedCall(target, attr if attr is not target else attr.value, "__setattr__", scope)

    def _store_scope(self, target: cst.BaseExpression) -> Optional[Scope]:
        """The scope whose code assigns ``target``."""
        if self._stores_in is None:
            self._stores_in = {id(w.node): w.scope for w in self.index.attribute_writes}
        return self._stores_in.get(id(target))

    def _captured(self, name: str, scope: Scope, f: FuncInfo) -> bool:
        """``name`` read in ``f`` is a variable of a scope outside ``f`` that no trace runs in."""
        owner = scope.lookup_scope(name)
        if owner is None or name in owner.defs or name in owner.classes or name in owner.imports:
            return False
        s: Optional[Scope] = owner
        while s is not None:
            if s is f.body_scope:
                return False  # a local of the traced function (or of a function inside it)
            s = s.parent
        return not self.finder.in_traced_code(owner)
