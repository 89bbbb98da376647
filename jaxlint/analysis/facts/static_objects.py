"""Objects a jitted function is compiled for, changed in place between two of its calls.

``jit`` looks a call up in its cache by the ``hash`` and ``==`` of what it treats as static,
and the cache keeps a reference to the object it was first given.  Changing that object in
place does not make a new cache entry: the stored key changes with it and still compares
equal, so the next call reuses the function compiled for the old attribute values.  A
``__hash__``/``__eq__`` over the changed attribute does not help for the same reason (the
entry's key is the changed object).  The objects a jitted function keeps this way:

* an argument passed for a ``static_argnums``/``static_argnames`` parameter;
* ``self`` of a method jitted with ``static_argnums=0``;
* ``self`` of a bound method jitted and stored on the instance (``self.f = jax.jit(self.f)``,
  or an entry of a dict there): the traced function reads its attributes at trace time, and a
  method calling it on ``self`` calls it for the instance it is called on;
* an instance of a ``register_static`` class, and the objects in the static metadata fields of
  a pytree (changed in place: ``state.config.lr = ...``).

A change counts when, in one host scope, it comes between two calls of the same jitted function
with the same variable (or in a loop that makes such a call), the variable is not rebound in
between, and the traced function reads the changed attribute.  A change made by a method of
the object (``model.set_scale(2.0)``) counts at the call of that method.
"""

from __future__ import annotations

from typing import Dict, Iterator, List, NamedTuple, Optional, Set, Tuple

import libcst as cst

from jaxlint.analysis.model.classes import STATIC_FIELD, ClassModel, class_named
from jaxlint.analysis.facts.rebinding import Rebinding, use_before_stale_use
from jaxlint.analysis.host.host_value import class_hash
from jaxlint.analysis.syntax.fast_walk import holds, node_children
from jaxlint.analysis.syntax.module_index import AttributeWrite, ModuleIndex
from jaxlint.analysis.syntax.nodes import string_literal
from jaxlint.analysis.syntax.scopes import ClassInfo, FuncInfo, Scope
from jaxlint.analysis.facts.static_arguments import arguments_by_parameter
from jaxlint.analysis.model.transforms import Application

FROZEN_KINDS = ("equinox",)  # instances refuse attribute assignment
CONSTRUCTION = ("__init__", "__post_init__", "__new__", "setup")


class Keeper(NamedTuple):
    """A jitted function and the parameter whose object it is compiled for."""

    app: Application
    param: str  # the parameter of app.func that receives the object
    label: str  # how the finding names the jitted function
    metadata_only: bool  # only in-place changes of static metadata fields count


class KeptCall(NamedTuple):
    keeper: Keeper
    name: str  # the variable passed
    call: cst.Call
    scope: Scope
    order: int
    through: Optional[cst.Call] = None  # a call of a wrapper: the jitted function's call in it
    # a call of a wrapper: the forwarding calls inside the wrappers, outermost first, down to
    # the jitted function's call (``through``)
    chain: Tuple[cst.Call, ...] = ()


WRAPPER_DEPTH = 2  # wrappers of wrappers followed
# Expressions whose parts may not run when the expression does
_CONDITIONAL = (cst.IfExp, cst.BooleanOperation, cst.Lambda, cst.ListComp, cst.GeneratorExp, cst.DictComp, cst.SetComp)


class StaleChange(NamedTuple):
    write: AttributeWrite  # what changes the attribute (the line to report)
    name: str  # the variable whose attribute changes
    keeper: Keeper
    first_call: cst.Call  # a call of the jitted function before the change (or of a wrapper)
    via: Optional[cst.Call]  # the method call that makes the change, if it is made in a method
    through: Optional[cst.Call] = None  # the jitted function's call in the wrapper, if any
    chain: Tuple[cst.Call, ...] = ()  # the forwarding calls from first_call down (KeptCall.chain)
    read: Optional[cst.Attribute] = None  # where the traced function reads the attribute


class StaticObjects:
    def __init__(self, index: ModuleIndex, analyzer, classes: ClassModel, rebinding: Rebinding):
        self.index = index
        self.rebinding = rebinding
        self.analyzer = analyzer
        self.finder = analyzer.finder
        self.classes = classes
        self._reads: Dict[Tuple[int, str], Set[str]] = {}
        self._where = rebinding.module.call_sites.sites

    # -- what is passed where ------------------------------------------------------------
    def kept_calls(self) -> Iterator[KeptCall]:
        for kc in self._direct_kept_calls():
            yield kc
            yield from self._through_wrappers(kc, WRAPPER_DEPTH)

    def _through_wrappers(self, kc: KeptCall, depth: int) -> Iterator[KeptCall]:
        """A plain module-level function that hands its parameter on to the kept slot
        (``def predict(x, cfg): return forward(x, cfg)``): its calls pass their argument's
        object to the jitted function as it is, so ``predict(x, cfg)`` is a kept call too."""
        w = kc.scope.func
        if depth > 0 and w is not None and kc.scope is w.body_scope and w.is_method and not w.is_lambda:
            yield from self._through_own_method(kc, w, depth)
            return
        if depth <= 0 or w is None or kc.scope is not w.body_scope or w.is_lambda or w.is_method or w.scope.parent is not None:
            return
        if self.finder.is_traced_def(w) or kc.name not in w.all_param_names():
            return
        if not kc.scope.unrebound_param(kc.name):
            return  # rebound in the wrapper: what it passes on is not the argument
        if not self._always_runs(kc.call, w):
            return  # a call under a condition may not be made
        p = w.params
        if p.star_arg is not None and isinstance(p.star_arg, cst.Param) or p.star_kwarg is not None:
            return
        targets = self.finder.call_targets
        for call, scope, t in targets.callers(w):
            bound = targets.bind(t, call, scope)
            passed = bound.get(kc.name) if bound is not None else None
            where = self._where.get(id(call))
            if passed is None or passed.call is not call or not isinstance(passed.expr, cst.Name) or where is None:
                continue
            outer = KeptCall(kc.keeper, passed.expr.value, call, scope, where[1], kc.through or kc.call, (kc.call,) + kc.chain)
            yield outer
            yield from self._through_wrappers(outer, depth - 1)

    def _through_own_method(self, kc: KeptCall, m: FuncInfo, depth: int) -> Iterator[KeptCall]:
        """A method that calls the jitted function kept for its own instance
        (``def predict(self, p): return self.step(p)`` with ``self.step = jax.jit(self._step)``):
        ``model.predict(p)`` calls it for ``model``'s object, so it is a kept call of ``model``."""
        if m.receiver != kc.name or self.finder.is_traced_def(m):
            return
        if not kc.scope.unrebound_param(kc.name) or not self._always_runs(kc.call, m):
            return
        for call, scope, order in self.index.calls:
            func = call.func
            if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.attr.value == m.name):
                continue
            obj = func.value.value
            if self._is_instance_of(obj, scope, m.cls):
                outer = KeptCall(kc.keeper, obj, call, scope, order, kc.through or kc.call, (kc.call,) + kc.chain)
                yield outer
                yield from self._through_wrappers(outer, depth - 1)

    def _through_methods(self, keeper: Keeper, passed: cst.Attribute, call: cst.Call, scope: Scope) -> Iterator[KeptCall]:
        """A method that passes ``self.config`` on (``def apply(self, x): return forward(x,
        self.config)``), on an instance built from a variable its ``__init__`` stores there
        (``model = Model(config)``): ``model.apply(x)`` (``model(x)`` for ``__call__``) passes
        ``config``'s object, so it is a kept call of ``config``."""
        m = scope.func
        if m is None or scope is not m.body_scope or m.cls is None or m.is_lambda or self.finder.is_traced_def(m):
            return
        params = m.positional_params()
        if not (params and isinstance(passed.value, cst.Name) and passed.value.value == params[0].name.value):
            return
        me = params[0].name.value
        if not scope.unrebound_param(me) or not self._always_runs(call, m):
            return
        cls = m.cls
        # ``self.attr = param`` in ``__init__`` is the only binding of the attribute in the
        # class's methods: the instance keeps the object passed for ``param``
        c = self.classes.constructor(cls)
        writes = self._self_writes(cls, passed.attr.value)
        pname = c.stores.get(passed.attr.value) if c is not None and c.init is not None else None
        if pname is None or len(writes) != 1 or writes[0].scope is not c.init.body_scope:
            return
        for outer, oscope, order in self.index.calls:
            func = outer.func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.attr.value == m.name:
                obj = func.value.value
            elif isinstance(func, cst.Name) and m.name == "__call__":
                obj = func.value
            else:
                continue
            built = self._only_construction(obj, oscope, cls)
            args = self.classes.parameter_arguments(cls, built.args) if built is not None else None
            arg = args.get(pname) if args is not None else None
            if arg is not None and isinstance(arg.value, cst.Name) and self._bound_once(arg.value.value, oscope):
                yield KeptCall(keeper, arg.value.value, outer, oscope, order, call, (call,))

    def _bound_once(self, name: str, scope: Scope) -> bool:
        """``name`` holds one object in ``scope`` (what the instance stored is what changes)."""
        owner = scope.lookup_scope(name)
        return owner is not None and owner.kind != "class" and owner.only_binding(name) is not None

    def _always_runs(self, call: cst.Call, f: FuncInfo) -> bool:
        """``call`` is in a simple statement of ``f``'s body itself (not under an ``if``, a loop,
        a ``try`` or a ``with``), outside conditional expressions and lambdas."""
        body = f.node.body
        if not isinstance(body, cst.IndentedBlock):
            return False
        for stmt in body.body:
            if isinstance(stmt, cst.SimpleStatementLine) and holds(stmt, call, _CONDITIONAL):
                return True
        return False

    def _only_construction(self, name: str, scope: Scope, cls: ClassInfo) -> Optional[cst.Call]:
        """The ``Cls(...)`` call that ``name``, bound once in ``scope``, holds."""
        value, owner = scope.sole_binding(name, mutable=True) or (None, None)
        if owner is not scope or not (isinstance(value, cst.Call) and isinstance(value.func, cst.Name)):
            return None
        if class_named(scope, value.func.value) is not cls:
            return None
        return value

    def _direct_kept_calls(self) -> Iterator[KeptCall]:
        for app in self.finder.applications:
            if not app.transform.cached or app.transform.filtered:
                continue
            f = app.func
            statics, opaque = self.analyzer.static_names(app) if app.transform.statics else (set(), False)
            if opaque:
                continue
            label = f"jitted {f.qualname}()"
            positional = [p.name.value for p in f.positional_params()]
            me = positional[0] if f.is_method and positional else None
            if me is not None and (me in statics or app.bound_self):
                keeper = Keeper(app, me, label, False)
                yield from self._method_calls(app, keeper)
            pos = app.jit_positional()
            calls = list(self.analyzer.call_sites(app))
            if not app.bound_self and not f.is_method:
                calls.extend(self._stored_calls(app, calls))
            for call in calls:
                where = self._where.get(id(call))
                if where is None:
                    continue
                scope, order = where
                for arg, pname in arguments_by_parameter(app, call, pos):
                    if pname in statics and isinstance(arg.value, cst.Attribute):
                        yield from self._through_methods(Keeper(app, pname, label, False), arg.value, call, scope)
                        continue
                    if pname is None or not isinstance(arg.value, cst.Name):
                        continue
                    name = arg.value.value
                    if pname in statics:
                        yield KeptCall(Keeper(app, pname, label, False), name, call, scope, order)
                        continue
                    cls = self.instance_class(name, scope)
                    kind = self.classes.pytree_kind(cls) if cls is not None else None
                    if kind == "static":
                        yield KeptCall(Keeper(app, pname, label, False), name, call, scope, order)
                    elif kind in ("dataclass", "equinox", "custom"):
                        yield KeptCall(Keeper(app, pname, label, True), name, call, scope, order)

    def _method_calls(self, app: Application, keeper: Keeper) -> Iterator[KeptCall]:
        """``obj.method(...)`` / ``obj(...)`` / ``self.method(...)`` calls of a method whose
        ``self`` the jitted function keeps."""
        f = app.func
        cls = f.cls
        if cls is None:
            return
        names = {(f.name, None)}
        if app.bound_self:
            # self.f = jax.jit(self.f): the jitted function is called through the attribute
            # (``self.fns = {"f": jax.jit(self.f)}``: through the attribute's entry)
            names = set(self._stored_as(app))
            if not names:
                return
        for call, scope, order in self.index.calls:
            func = call.func
            key = None
            if isinstance(func, cst.Subscript) and len(func.slice) == 1:
                index = func.slice[0].slice
                key = string_literal(index.value) if isinstance(index, cst.Index) else None
                func = func.value if key is not None else func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and (func.attr.value, key) in names:
                obj = func.value.value
            elif isinstance(func, cst.Name) and f.name == "__call__" and not app.bound_self:
                obj = func.value
            else:
                continue
            if self._is_instance_of(obj, scope, cls):
                yield KeptCall(keeper, obj, call, scope, order)

    def _stored_calls(self, app: Application, known: List[cst.Call]) -> List[cst.Call]:
        """``trainer.step(x, cfg)`` where the class's method stored the jitted function on its
        instance (``self.step = jax.jit(scaled, static_argnums=1)``)."""
        stored = set()
        for w in self.index.attribute_writes:
            if w.value is not app.site or w.in_place:
                continue
            f = w.method
            if f is not None and not f.is_lambda:
                stored.add((id(f.cls.node), w.attr, f.cls))
        # an attribute the class also binds to something else may not hold the jitted function
        stored = {(k, attr, cls) for k, attr, cls in stored if all(w.value is app.site for w in self._self_writes(cls, attr))}
        if not stored:
            return []
        seen = {id(c) for c in known}
        out = []
        for call, scope, _order in self.index.calls:
            func = call.func
            if id(call) in seen or not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
                continue
            for _key, attr, cls in stored:
                if func.attr.value == attr and self.instance_class(func.value.value, scope) is cls:
                    out.append(call)
                    break
        return out

    def _self_writes(self, cls: ClassInfo, attr: str) -> List[AttributeWrite]:
        """Every binding of ``self.attr`` in a method of ``cls`` (also ``+=`` and in-place)."""
        out = []
        for w in self.index.attribute_writes:
            f = w.method
            if w.attr == attr and f is not None and f.cls is cls and not f.is_lambda:
                out.append(w)
        return out

    def _stored_as(self, app: Application) -> List[Tuple[str, Optional[str]]]:
        """The attributes the jitted function is stored in: (attribute, None) for
        ``self.f = jax.jit(...)``, (attribute, key) for ``self.fns = {"f": jax.jit(...)}``."""
        site = app.site
        out = []
        for w in self.index.attribute_writes:
            if w.in_place:
                continue
            if w.value is site:
                out.append((w.attr, None))
            elif isinstance(w.value, cst.Dict):
                for el in w.value.elements:
                    if isinstance(el, cst.DictElement) and el.value is site and string_literal(el.key) is not None:
                        out.append((w.attr, string_literal(el.key)))
        return out

    # -- classes of variables --------------------------------------------------------------
    def instance_class(self, name: str, scope: Scope) -> Optional[ClassInfo]:
        """The module class whose instance ``name`` holds, as the receiver model shows it."""
        r = self.finder.receivers.receiver_of(cst.Name(name), scope)
        return r.cls if r is not None else None

    def _is_instance_of(self, name: str, scope: Scope, cls: ClassInfo) -> bool:
        c = self.instance_class(name, scope)
        return c is not None and cls in self.classes.mro(c)

    # -- what the traced function reads ---------------------------------------------------------
    def reads(self, keeper: Keeper) -> Dict[str, cst.Attribute]:
        """The attributes of the kept object the traced function reads, each with its first
        read (``cfg.scale``), in the function or a method or property it calls on ``self``."""
        key = (id(keeper.app.func.node), keeper.param)
        r = self._reads.get(key)
        if r is None:
            f = keeper.app.func
            cls = f.cls if f.receiver == keeper.param else None
            r = self._reads[key] = self._attrs_read(f, keeper.param, cls, 0, set())
        return r

    def _attrs_read(self, f: FuncInfo, param: str, cls: Optional[ClassInfo], depth: int, seen: Set[int]) -> Dict[str, cst.Attribute]:
        out: Dict[str, cst.Attribute] = {}
        if id(f.node) in seen:
            return out
        seen.add(id(f.node))
        stack = [f.node.body]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == param:
                attr = node.attr.value
                out.setdefault(attr, node)
                # self.helper(...) or a property: what it reads is read too
                member = self.classes.member(cls, attr) if cls is not None else None
                if member is not None and depth < 3:
                    params = member.positional_params()
                    if params:
                        for a, read in self._attrs_read(member, params[0].name.value, cls, depth + 1, seen).items():
                            out.setdefault(a, read)
                continue
            if isinstance(node, cst.Assign):
                # ``self.cache[k] = x`` stores into the object and reads nothing of it
                stack.append(node.value)
                for t in node.targets:
                    target = t.target
                    if isinstance(target, cst.Subscript) and _is_attribute_of(target.value, param):
                        stack.extend(target.slice)
                    else:
                        stack.append(target)
                continue
            stack.extend(reversed(node_children(node)))  # popped in source order: the first read is kept
        return out

    # -- changes between calls ---------------------------------------------------------------
    def _writes_in(self, scope: Scope, name: str) -> List[Tuple[int, AttributeWrite, Optional[cst.Call]]]:
        """(order in ``scope``, write, method call or None): the changes of ``name``'s attributes
        made in ``scope``, directly or by a method of its class called there."""
        out = [(w.order, w, None) for w in self._writes_by_scope().get(id(scope), ()) if w.name == name]
        cls = self.instance_class(name, scope)
        if cls is None:
            return out
        for fx, order in scope.calls:
            if not (isinstance(fx, cst.Attribute) and isinstance(fx.value, cst.Name) and fx.value.value == name):
                continue
            method = self.classes.member(cls, fx.attr.value)
            if method is None or method.body_scope is None or self.finder.is_traced_def(method):
                continue
            params = method.positional_params()
            if not params:
                continue
            me = params[0].name.value
            call = self.analyzer.module_ctx.call_sites.call_of(fx)
            for w in self._writes_by_scope().get(id(method.body_scope), ()):
                if w.name == me:
                    out.append((order, w, call))
        return out

    def _writes_by_scope(self) -> Dict[int, List[AttributeWrite]]:
        by = getattr(self, "_by_scope", None)
        if by is None:
            by = self._by_scope = {}
            for w in self.index.attribute_writes:
                by.setdefault(id(w.scope), []).append(w)
        return by

    def stale_changes(self) -> List[StaleChange]:
        groups: Dict[Tuple[int, int, str, str], List[KeptCall]] = {}
        for kc in self.kept_calls():
            if kc.scope.func is not None and self.finder.is_traced_def(kc.scope.func):
                continue  # a call inside traced code is traced, not a cached call
            groups.setdefault((id(kc.keeper.app), id(kc.scope), kc.name, kc.keeper.param), []).append(kc)
        out: List[StaleChange] = []
        seen: Set[int] = set()
        for calls in groups.values():
            first = calls[0]
            scope, name, keeper = first.scope, first.name, first.keeper
            if not self._mutable_object(name, scope, keeper):
                continue
            reads = self.reads(keeper)
            uses = sorted(c.order for c in calls)
            resets = [b.order for b in self._owner_bindings(scope, name) if b.order is not None]
            for order, w, via in self._writes_in(scope, name):
                if w.attr not in reads or id(w.node) in seen:
                    continue
                if keeper.metadata_only and not (w.in_place and self._static_field(name, scope, w.attr)):
                    continue
                before = use_before_stale_use(scope, uses, order, resets)
                if before is None and self._own_state_of_repeated_method(scope, name):
                    # The next run of the method calls the jitted function again, on the same
                    # instance, after the change this run made.
                    before = min(uses) if not resets else None
                if before is None:
                    continue
                seen.add(id(w.node))
                first = next(c for c in calls if c.order == before)
                out.append(StaleChange(w, name, keeper, first.call, via, first.through, first.chain, reads[w.attr]))
        return out

    def _own_state_of_repeated_method(self, scope: Scope, name: str) -> bool:
        """Is ``name`` the ``self`` of a method that runs repeatedly on one instance: called
        from outside the module or more than once, and not part of building the instance
        (``__init__``, ``__post_init__``, ``setup``, or a method those call)?"""
        f = scope.func
        if f is None or f.is_lambda or f.receiver != name or f.name in self._construction_methods(f.cls):
            return False
        return self.rebinding.runs_repeatedly(scope)

    def _construction_methods(self, cls: ClassInfo) -> Set[str]:
        todo = [n for n in CONSTRUCTION if n in cls.body_scope.defs]
        out: Set[str] = set(CONSTRUCTION)
        while todo:
            m = cls.body_scope.defs.get(todo.pop())
            if m is None or m.body_scope is None:
                continue
            for fx, _order in m.body_scope.calls:
                if isinstance(fx, cst.Attribute) and isinstance(fx.value, cst.Name) and fx.value.value == "self":
                    n = fx.attr.value
                    if n not in out and n in cls.body_scope.defs:
                        out.add(n)
                        todo.append(n)
        return out

    def _owner_bindings(self, scope: Scope, name: str):
        owner = scope.lookup_scope(name)
        if owner is not scope:
            return []
        return scope.value_bindings(name)

    def _static_field(self, name: str, scope: Scope, attr: str) -> bool:
        cls = self.instance_class(name, scope)
        return cls is not None and self.classes.field_kind(cls, attr) == STATIC_FIELD

    def _mutable_object(self, name: str, scope: Scope, keeper: Keeper) -> bool:
        """False when the object cannot be the one JAX keeps: the variable is not a local or
        global of this scope, or its class makes it unhashable (then JAX refuses it and the
        unhashable-argument rule speaks)."""
        owner = scope.lookup_scope(name)
        if owner is None or owner.kind == "class":
            return False
        if owner is not scope and any(b.order is None for b in owner.bindings.get(name, ())):
            return False  # rebound by other functions (``global``): which object is passed is unknown
        cls = self.instance_class(name, scope)
        if cls is None:
            return True
        if keeper.metadata_only:
            return True  # the pytree itself is flattened; what it holds is what changes
        if self.classes.pytree_kind(cls) in FROZEN_KINDS:
            return False
        # A jitted bound method holds its instance without hashing it.
        return keeper.app.bound_self or class_hash(cls, self.classes)[0] != "none"


def _is_attribute_of(e, name: str) -> bool:
    return isinstance(e, cst.Attribute) and isinstance(e.value, cst.Name) and e.value.value == name
