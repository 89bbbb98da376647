"""Which functions JAX traces with abstract values, by what, and with which static parameters.

JAX APIs are recognised by the import they resolve to, never by spelling: ``import jax as jx;
@jx.jit``, ``from jax import jit as J``, ``@partial(jax.jit, static_argnames=...)`` and
``g = jax.jit(f)`` all name the same transform.  The transforms themselves are data in
``transform_table``; their literal arguments are read by ``transform_arguments``.
"""

from __future__ import annotations

from typing import Dict, FrozenSet, Iterator, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.model.call_targets import CallTargets
from jaxlint.analysis.model.classes import ClassModel, class_named, is_classmethod, is_property
from jaxlint.analysis.model.forwarded_transforms import forwarded_applications
from jaxlint.analysis.model.library_callables import library_callable
from jaxlint.analysis.model.names import PARTIAL, resolve
from jaxlint.analysis.model.receivers import ReceiverModel
from jaxlint.analysis.model.transform_arguments import (
    StaticSpec,
    converted_positions,
    parse_argnums,
    parse_in_axes,
    parse_statics,
)
from jaxlint.analysis.model.transform_table import JIT, PALLAS, PASS_THROUGH, SWITCH, TRANSFORMS, Transform
from jaxlint.analysis.syntax.module_index import ModuleIndex
from jaxlint.analysis.syntax.scopes import FuncInfo, Scope
from jaxlint.analysis.syntax.functions import possible_returns, _undecorated
from jaxlint.analysis.syntax.nodes import argument_for, arguments_by_position, function_arguments, keyword_value, received_arguments, string_literal


class Bound:
    """What ``functools.partial`` bound ahead of every call of a function value (``ahead``: its
    arguments, as the function receives them), of an Application or a FnRef."""

    __slots__ = ()

    @property
    def bound_pos(self) -> int:  # partial(f, a, b): the first parameters are bound
        return sum(1 for a in self.ahead if a.keyword is None)

    @property
    def bound_kw(self) -> FrozenSet[str]:
        return frozenset(a.keyword.value for a in self.ahead if a.keyword is not None)

    def bind_ahead(self, args) -> None:
        """``functools.partial(f, *args)``: ``args`` are bound ahead of every call of ``f``."""
        self.ahead = received_arguments(self.ahead, args)


class Application(Bound):
    """One way a function is traced: ``@jax.jit`` on it, ``lax.scan(it, ...)``, ..."""

    __slots__ = (
        "func",
        "transform",
        "statics",
        "site",
        "site_scope",
        "bound_self",
        "ahead",
        "unbatched",
        "opaque_axes",
        "nargs",
        "argnums",
        "receiver_cls",
        "stages",
        "leading",
        "fresh_per_call",
        "gradient",
    )

    def __init__(self, func: FuncInfo, transform: Transform, site, site_scope: Scope):
        self.func = func
        self.transform = transform
        # Some transform of this application stages the function (``@jax.jit`` stacked on
        # ``@jax.vmap`` does, though the vmap is the one recorded).
        self.stages = transform.stages
        self.statics = StaticSpec()
        self.site = site  # the decorator or call that applies the transform
        self.site_scope = site_scope
        # A lax.cond/switch branch made anew on every call of the host function around it
        # (a lambda or a local def there): JAX traces it again on every call, so an effect in
        # it happens once per call, as written.
        self.fresh_per_call = False
        # jax.grad(f, argnums=...): the differentiated positions; None when they cannot be read
        self.argnums: Optional[Tuple[int, ...]] = (0,)
        # this transform, or one stacked under it, differentiates (jax.grad(f),
        # jax.jit(jax.grad(f))): a call returns gradients, not what the function's body returns
        self.gradient = False
        self.bound_self = False  # jax.jit(self.method): self is a concrete Python object
        self.ahead: Tuple[cst.Arg, ...] = ()  # partial(f, a, k=v): the arguments bound ahead
        self.unbatched: FrozenSet[int] = frozenset()  # vmap in_axes=None positions
        self.opaque_axes = False
        self.nargs: Optional[int] = None  # positional arguments the function receives, if known
        # The class of the object a bound method belongs to (``jax.jit(model.apply)`` with
        # ``model = Model(...)``): a subclass of the method's own class, or that class.
        self.receiver_cls = None
        # A callable a library made of ``func`` (``jax.jit(model.apply)`` of a linen module,
        # ``jax.jit(hk.transform(f).init)``): the library's own parameters it takes first,
        # ahead of ``func``'s (see ``library_callables``).
        self.leading: Tuple[str, ...] = ()

    @property
    def skipped(self) -> int:
        """Leading positional parameters the transformed callable does not take: those bound by
        functools.partial, and ``self`` of a bound method (``jax.jit(self.step)``)."""
        return self.bound_pos + (1 if self.bound_self and self.func.is_method else 0)

    def jit_positional(self) -> List[str]:
        """Positional parameter names as the transform sees them (what static_argnums index)."""
        own = [p.name.value for p in self.func.positional_params()][self.skipped :]
        return list(self.leading) + own


def arguments_by_parameter(app: Application, call: cst.Call, pos: List[str]) -> Iterator[Tuple[cst.Arg, Optional[str]]]:
    """(argument, the parameter it lands on, or None) for a call of the jitted callable, up to
    the first ``*args``/``**kwargs``; ``pos``: the callable's positional parameters
    (``app.jit_positional()``)."""
    # self.method(...) of a decorated method: self is bound, the arguments start after it
    start = 1 if isinstance(call.func, cst.Attribute) and app.func.is_method and not app.bound_self else 0
    return arguments_by_position(call.args, pos, start)


# What a function value has bound: the object of a bound method, and what ``functools.partial``
# fixed.  A transform applied to the value keeps them, and so does a name for the result.
BINDING = ("bound_self", "receiver_cls", "ahead", "gradient")


def copy_binding(target, source) -> None:
    """Give ``target`` (an Application or FnRef) what ``source`` has bound."""
    for name in BINDING:
        setattr(target, name, getattr(source, name))


class FnRef(Bound):
    """A function value as the analysis sees it: which def, and what is already bound."""

    __slots__ = ("func", "bound_self", "ahead", "jit", "receiver_cls", "stages", "own_trace", "gradient")

    def __init__(self, func: FuncInfo, bound_self: bool = False, receiver_cls=None):
        self.func = func
        self.bound_self = bound_self
        self.ahead: Tuple[cst.Arg, ...] = ()
        self.jit: Optional[Application] = None
        self.receiver_cls = receiver_cls  # a bound method: the class of the object it is bound to
        self.stages = False  # wrapped by a staging transform where it was built (``jax.jit(g)``)
        # wrapped by a transform inside traced code (``jax.remat(g)()`` in a jitted function):
        # the transform traces it in a trace of its own, nested in the one around it
        self.own_trace = False
        self.gradient = False  # wrapped by jax.grad and friends: a call returns gradients

    def copy(self) -> "FnRef":
        out = FnRef(self.func)
        for slot in FnRef.__slots__[1:]:
            setattr(out, slot, getattr(self, slot))
        return out


class TransformFinder:
    """Finds every traced entry point of a module."""

    def __init__(self, index: ModuleIndex, extra_jit: FrozenSet[str] = frozenset()):
        self.index = index
        self.extra_jit = extra_jit
        self.applications: List[Application] = []
        self.by_func: Dict[int, List[Application]] = {}
        # (scope id, name) -> Application, for ``g = jax.jit(f)``
        self.aliases: Dict[Tuple[int, str], Application] = {}
        self._bound_values: Dict[int, Dict[int, List[str]]] = {}
        self._classes = None
        self._receivers = None
        self._call_targets = None
        self._find()

    @property
    def classes(self):
        """The module's class model (inheritance, pytree fields), built on first use."""
        if self._classes is None:
            self._classes = ClassModel(self.index)
        return self._classes

    @property
    def receivers(self):
        """What objects are instances of (``obj = Cls(...)``, ``self.model = Model(...)``)."""
        if self._receivers is None:
            self._receivers = ReceiverModel(self.classes)
            self._receivers.call_targets = self.call_targets
        return self._receivers

    @property
    def call_targets(self):
        """The function each call reaches, through any kind of callable (built on first use)."""
        if self._call_targets is None:
            self._call_targets = CallTargets(self.index, self)
            self.receivers.call_targets = self._call_targets
        return self._call_targets

    # -- recognising transforms -------------------------------------------------
    def transform_of(self, expr, scope: Scope) -> Optional[Tuple[Transform, List[cst.Arg]]]:
        """``jax.jit`` / ``partial(jax.jit, k=v)`` / ``eqx.filter_jit(donate=...)``."""
        q = resolve(expr, scope)
        if q is not None:
            t = TRANSFORMS.get(q)
            if t is None and q in self.extra_jit:
                t = JIT
            if t is not None:
                return t, []
            return None
        if isinstance(expr, cst.Call):
            fq = resolve(expr.func, scope)
            if fq in PARTIAL and expr.args and expr.args[0].keyword is None:
                inner = self.transform_of(expr.args[0].value, scope)
                if inner is not None:
                    # ``partial(partial(jax.jit, static_argnums=0), donate_argnums=1)``
                    return inner[0], list(received_arguments(inner[1], expr.args[1:]))
            elif fq is not None:
                t = TRANSFORMS.get(fq) or (JIT if fq in self.extra_jit else None)
                # ``@eqx.filter_jit(donate="all")`` / ``@nnx.jit(static_argnums=1)`` style
                if t is not None and not any(a.keyword is None for a in expr.args[:1]):
                    return t, list(expr.args)
        return None

    # -- resolving function arguments -----------------------------------------
    def resolve_fn(self, expr, scope: Scope, depth: int = 0) -> Optional[FnRef]:
        if depth > 6:
            return None
        idx = self.index
        if isinstance(expr, cst.Lambda):
            f = idx.func_by_node.get(id(expr))
            return FnRef(f) if f is not None else None
        if isinstance(expr, cst.Name):
            f = scope.lookup_def(expr.value)
            owner = scope.lookup_scope(expr.value)
            if f is not None:
                ref = FnRef(f)
                # ``f = functools.partial(f, k=v)`` after the def: the name now has k bound.
                for b in owner.bindings.get(expr.value, ()) if owner is not None else ():
                    v = b.value
                    if (
                        b.kind == "assign"
                        and isinstance(v, cst.Call)
                        and resolve(v.func, owner) in PARTIAL
                        and v.args
                        and isinstance(v.args[0].value, cst.Name)
                        and v.args[0].value.value == expr.value
                    ):
                        ref.bind_ahead(v.args[1:])
                return ref
            if owner is not None:
                alias = self.aliases.get((id(owner), expr.value))
                if alias is not None and alias.leading:
                    return None  # its arguments do not line up with ``__call__``'s parameters
                if alias is not None:
                    r = FnRef(alias.func)
                    copy_binding(r, alias)
                    r.jit = alias
                    return r
                found = owner.sole_binding(expr.value)
                if found is not None:
                    return self.resolve_fn(found[0], found[1], depth + 1)
            return None
        if isinstance(expr, cst.Attribute):
            return self._bound_method(expr, scope) or self._called_instance(expr, scope)
        if isinstance(expr, cst.Call):
            made = self._factory_made(expr, scope)
            if made is not None:
                return FnRef(made)
            fq = resolve(expr.func, scope)
            if not expr.args or expr.args[0].keyword is not None or expr.args[0].star:
                return self._called_instance(expr, scope)
            if fq in PARTIAL:
                inner = self.resolve_fn(expr.args[0].value, scope, depth + 1)
                if inner is not None:
                    inner.bind_ahead(expr.args[1:])
                return inner
            if fq is not None and TRANSFORMS.get(fq) is PALLAS:
                return None  # a kernel is traced with Refs by pallas_call itself, not by outer transforms
            if fq in PASS_THROUGH or (fq is not None and fq in TRANSFORMS):
                inner = self.resolve_fn(expr.args[0].value, scope, depth + 1)
                if inner is not None and fq in TRANSFORMS and TRANSFORMS[fq].differentiated:
                    inner = inner.copy()
                    inner.gradient = True
                return inner
            return self._called_instance(expr, scope)
        return None

    def _called_instance(self, expr, scope: Scope) -> Optional[FnRef]:
        """An instance of a class of the module handed over as the function (``jax.jit(obj)``):
        calling it runs its class's ``__call__``, with ``self`` the concrete object.  Not a
        linen module, whose ``__call__`` runs only bound by ``apply``."""
        receiver = self.receivers.receiver_of(expr, scope)
        cls = receiver.cls if receiver is not None else None
        if cls is None or self.classes.is_linen_module(cls):
            return None
        f = self.classes.member(cls, "__call__")
        if f is None or not f.is_method or is_property(f) or is_classmethod(f):
            return None
        return FnRef(f, True, cls)

    def _factory_made(self, call: cst.Call, scope: Scope) -> Optional[FuncInfo]:
        """``make_kernel(0.75)`` of a plain function of the module, or ``self.make_step(n)`` of
        a method, every ``return`` of which gives the same nested ``def`` (a factory returning
        a closure): that def.  What it reads from the factory is the factory's parameters
        (and receiver), unknown here."""
        if isinstance(call.func, cst.Name):
            owner = scope.lookup_scope(call.func.value)
            f = owner.sole_def(call.func.value) if owner is not None else None
        elif isinstance(call.func, cst.Attribute):
            ref = self._bound_method(call.func, scope)
            f = ref.func if ref is not None else None
        else:
            return None
        if f is None or f.is_lambda or f.body_scope is None or not _undecorated(f) or id(f.node) in self.by_func:
            return None
        inner = None
        for r in possible_returns(f.node):
            if not isinstance(r, cst.Name):
                return None
            d = f.body_scope.sole_def(r.value)
            if d is None or not _undecorated(d):
                return None
            if inner is not None and inner is not d:
                return None
            inner = d
        return inner

    def _factory_argument(self, expr, scope: Scope) -> Optional[FnRef]:
        """A transform applied to a parameter of a plain module-level function (a factory:
        ``def smooth(fn): wrapped = jax.custom_jvp(fn); ...; return wrapped``): the function
        every call of the factory passes for it, when the factory is only ever called by its
        name and the calls agree (``step = smooth(kernel)``)."""
        if not isinstance(expr, cst.Name) or scope.kind != "function" or scope.func is None:
            return None
        f = scope.func
        if f.is_lambda or f.is_method or f.scope.kind != "module" or not _undecorated(f):
            return None
        name = expr.value
        names = [p.name.value for p in f.positional_params()]
        if not scope.unrebound_param(name) or name not in names:
            return None
        calls = [(c, s) for c, s in self.index.calls_of(f.name) if s.lookup_def(f.name) is f]
        if not calls or self.call_targets.mentions(f.scope, f.name) != len(calls) + 1:
            return None  # also used as a value: its calls are not all seen
        found: Optional[FnRef] = None
        for call, s in calls:
            arg = argument_for(call, names, name)
            if not isinstance(arg, cst.Arg):
                return None
            ref = self.resolve_fn(arg.value, s)
            if ref is None or ref.bound_self or ref.bound_pos or ref.bound_kw or ref.jit is not None:
                return None  # a def as it is: what a partial or a jit binds is not carried here
            if found is not None and found.func is not ref.func:
                return None
            found = ref
        return found

    def _bound_method(self, expr: cst.Attribute, scope: Scope) -> Optional[FnRef]:
        """``obj.method`` / ``self.method`` / ``Cls(...).method`` / ``self.model.apply``: the
        method of the receiver's class (inherited ones too).  A receiver whose class the module
        does not show gives None: nothing is said about a function that cannot be read."""
        attr = expr.attr.value
        named = class_named(scope, expr.value.value, sole=True) if isinstance(expr.value, cst.Name) else None
        if named is not None:
            # ``Cls.method``: a static or class method, or a plain function taking ``self``
            f = self.classes.member(named, attr)
            if f is None or is_property(f):
                return None
            return FnRef(f, is_classmethod(f), named)
        receiver = self.receivers.receiver_of(expr.value, scope)
        cls = receiver.cls if receiver is not None else None
        if cls is None and isinstance(expr.value, cst.Name) and expr.value.value in ("self", "cls"):
            cls = scope.enclosing_class()  # a lambda or nested function of a method
        if cls is None:
            return None
        f = self.classes.member(cls, attr)
        if f is None or is_property(f):
            return None
        return FnRef(f, True, cls)

    # -- finding applications ---------------------------------------------------
    def _add(self, app: Application) -> None:
        self.applications.append(app)
        self.by_func.setdefault(id(app.func.node), []).append(app)

    def _find(self) -> None:
        idx = self.index
        for f in idx.functions:
            self._from_decorators(f)
        for call, scope, _order in idx.calls:
            if id(call) in idx.eager_calls:
                continue  # under ``with jax.disable_jit():`` the function runs on concrete values
            found = self.transform_of(call.func, scope)
            forwarded = forwarded_applications(self, call, found, scope) if scope.kind == "function" else None
            if forwarded is not None:
                # applied anew by every call of the function around it, with that call's values
                for fw in forwarded:
                    self._from_call(fw.site, fw.transform, [a for a, _ in fw.args], fw.scope, {id(a.value): s for a, s in fw.args})
                continue
            if found is None:
                continue
            t, extra = found
            args = list(call.args)
            self._from_call(call, t, extra + args, scope)
        self._name_aliases()
        # What a call reaches, and what an object is an instance of, may have been asked while
        # the applications were still being found (``jax.jit(env.step)`` asks what ``env`` is,
        # from the calls of its function): those answers saw only the jitted callables found
        # so far, so they are asked again of the whole picture.
        self._call_targets = self._receivers = None

    def _name_aliases(self) -> None:
        """``run = step``, bound once, where ``step`` is a jitted def (``@jax.jit``) or an alias
        of a jitted callable: ``run`` is that callable too (its calls are the callable's)."""
        idx = self.index
        scopes = [idx.module_scope] + [f.body_scope for f in idx.functions if f.body_scope is not None]
        for _round in range(4):  # chains of names, a few deep
            changed = False
            for scope in scopes:
                for name, binds in scope.bindings.items():
                    if len(binds) != 1 or binds[0].kind != "assign" or not isinstance(binds[0].value, cst.Name):
                        continue
                    if (id(scope), name) in self.aliases:
                        continue
                    app = self._jitted_name(binds[0].value.value, scope)
                    if app is not None:
                        self.aliases[(id(scope), name)] = app
                        changed = True
            if not changed:
                return

    def _jitted_name(self, name: str, scope: Scope) -> Optional[Application]:
        owner = scope.lookup_scope(name)
        if owner is None:
            return None
        alias = self.aliases.get((id(owner), name))
        if alias is not None:
            return alias
        f = owner.sole_def(name)
        if f is None:
            return None
        decorated = [a for a in self.by_func.get(id(f.node), ()) if isinstance(a.site, cst.Decorator)]
        return decorated[0] if len(decorated) == 1 and decorated[0].transform.cached else None

    def _from_decorators(self, f: FuncInfo) -> None:
        node = f.node
        tracing: List[Tuple[Transform, List[cst.Arg], cst.Decorator]] = []
        for d in reversed(node.decorators):
            found = self.transform_of(d.decorator, f.scope)
            if found is not None:
                tracing.append((found[0], found[1], d))
        if not tracing:
            return
        # jax.jit over jax.grad traces: the differentiation does not change what jit sees.
        gradient = any(x[0].differentiated for x in tracing)
        tracing = [x for x in tracing if not x[0].differentiated] or tracing
        # A custom derivative stacked with jit is what jit makes it (it hands its arguments on).
        tracing = [x for x in tracing if not x[0].converts] or tracing
        t, args, dec = tracing[-1] if len(tracing) == 1 else tracing[0]
        app = Application(f, t, dec, f.scope)
        app.gradient = gradient
        parse_statics(args, app.statics, f.scope)
        if t.differentiated:
            app.argnums = parse_argnums(args, f.scope)
        if t.converts:
            app.argnums = converted_positions(args, len(f.positional_params()), f.scope)
        if t.in_axes:
            parse_in_axes(args, app, 0)
        if len(tracing) > 1:
            # Several tracing transforms stacked: a parameter stays static only if every
            # one of them keeps it static; be silent about what we cannot combine.
            if any(x[0].statics and x[1] for x in tracing[1:]):
                app.statics.opaque = True
            app.statics.nums = []
            app.statics.names = []
            app.unbatched = frozenset()
            app.transform = next((x[0] for x in tracing if x[0].cached), t)
            app.stages = any(x[0].stages for x in tracing)
        self._add(app)

    def _from_call(self, call: cst.Call, t: Transform, args: List[cst.Arg], scope: Scope, arg_scopes: Optional[Dict[int, Scope]] = None) -> None:
        """Record the application of ``t`` by ``call`` (in ``scope``) to the functions among
        ``args``; ``arg_scopes``: where an argument is read when not in ``scope`` (a value a
        forwarder's caller gave it)."""
        pos = [a for a in args if a.keyword is None and not a.star]
        for e in function_arguments(args, t.fn_args, scope if t is SWITCH else None):
            at = arg_scopes.get(id(e), scope) if arg_scopes else scope
            ref = self.resolve_fn(e, at) or self._factory_argument(e, at)
            leading: Tuple[str, ...] = ()
            if ref is None and t is JIT:
                made = library_callable(self, e, at)
                if made is not None:
                    ref, leading = made
            for ref in [ref] if ref is not None else self._lifted_methods(e, args, at) if t.statics else ():
                app = Application(ref.func, t, call, scope)
                app.leading = leading
                copy_binding(app, ref)
                app.gradient = app.gradient or t.differentiated
                if t.statics:
                    parse_statics([a for a in args if a.keyword is not None], app.statics, scope)
                if t.differentiated:
                    app.argnums = parse_argnums(args[1:], scope)
                if t.converts:
                    app.argnums = converted_positions(args, len(ref.func.positional_params()) - ref.bound_pos, scope)
                if t.in_axes:
                    parse_in_axes(args, app, 1)
                if t.arity is not None:
                    app.nargs = t.arity(len(pos))
                self._add(app)
                self._record_alias(call, scope, app)

    def _lifted_methods(self, expr, args: List[cst.Arg], scope: Scope) -> List[FnRef]:
        """A Linen module class handed to one of Flax's lifted transforms (``nn.remat(Block)``,
        ``nn.jit(Block, static_argnums=2)``): the class it makes runs ``__call__``, or the
        methods ``methods=`` names, under the transform, which traces every argument passed
        to them but the static ones, counted with the module as argument 0 (as for a method
        the transform decorates)."""
        cls = class_named(scope, expr.value) if isinstance(expr, cst.Name) else None
        if cls is None or not self.classes.is_linen_module(cls):
            return []
        listed = keyword_value(args, "methods")
        if listed is None:
            names = ["__call__"]
        elif isinstance(listed, (cst.List, cst.Tuple)):
            names = [string_literal(el.value) for el in listed.elements]
        else:
            return []  # methods named by a value the module does not show
        methods = [self.classes.member(cls, n) if n is not None else None for n in names]
        if not all(m is not None and m.is_method for m in methods):
            return []  # methods the class does not show
        return [FnRef(m) for m in methods]

    def _record_alias(self, call: cst.Call, scope: Scope, app: Application) -> None:
        # ``g = jax.jit(f, ...)``: remember g so that its call sites can be checked.
        by_value = self._bound_values.get(id(scope))
        if by_value is None:
            by_value = {}
            for name, binds in scope.bindings.items():
                for b in binds:
                    if b.value is not None:
                        by_value.setdefault(id(b.value), []).append(name)
            self._bound_values[id(scope)] = by_value
        for name in by_value.get(id(call), ()):
            self.aliases[(id(scope), name)] = app

    # -- questions the analysis asks ---------------------------------------------
    def is_traced_def(self, f: FuncInfo) -> bool:
        return id(f.node) in self.by_func

    def in_traced_code(self, scope: Optional[Scope]) -> bool:
        """Is ``scope`` the body of a traced function, or nested in one?  A loop there runs
        only while that function is traced: a jitted call in it is traced into the outer
        program (once per outer compilation), not compiled on its own per iteration."""
        s = scope
        while s is not None:
            if s.kind == "function" and s.func is not None and self.is_traced_def(s.func):
                return True
            s = s.parent
        return False
