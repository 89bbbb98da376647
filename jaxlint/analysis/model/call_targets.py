"""Call targets: which function of the module a call reaches, and what lands on its parameters.

A call reaches a function through many kinds of callable, and each is followed as far as the
module proves it:

* a def, or a name bound once to another callable (``run = step``);
* a jitted callable (``@jax.jit``, ``step = jax.jit(f)``): the target carries its application;
  so does what another transform makes (``jax.vmap(f)``, ``@jax.custom_jvp``);
* a bound method of an instance of a class of the module (``Runner().apply``, ``obj.apply``
  after ``obj = Runner()``, ``self.apply`` when no subclass overrides it), jitted or not;
* an instance (``obj(...)`` calls ``__call__``), and a class (``Runner(...)`` calls
  ``__init__``);
* an attribute that every method of the class (and no code outside it) sets to one callable
  (``self._step = jax.jit(kernel)`` in ``__init__``, also through ``super().__init__``), or
  to ``None`` until then;
* the closure a factory returns (``run = make_runner()`` reaches the inner ``def run``);
* ``functools.partial(f, a, k=v)``: ``f`` with its leading parameters and keywords bound;
* a parameter that every visible call of its function binds to the same callable (``def
  apply_with(fn, x): return fn(x)``) or to instances of one class, through callers that
  forward their own parameter (``Stage(step)`` in ``Pipeline.__init__(self, step)``), a few
  levels deep.

Anything else is unknown (None): two assignments or call sites that disagree, an attribute
written from outside its class, star arguments, a callee of another module.  Every answer is
memoised per call node (per expression for callee values), and the table of callers is built
once per module.

API::

    ct = CallTargets(index, finder)
    t = ct.target(call, scope)            # Target or None
    t.func, t.app                         # the def reached; the jitted application, if any
    ct.bind(t, call, scope)               # {parameter: Passed} for what the call passes
    ct.value(expr, scope)                 # the Target a callee expression holds, or None
    ct.callers(func)                      # [(call, scope, Target)] of every call reaching func
    ct.app_callers(app)                   # the same for a jitted callable
    ct.origins(arg_expr, scope, call)     # where a forwarded parameter's value comes from
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.syntax.functions import possible_returns, rewrapped, _undecorated
from jaxlint.analysis.syntax.module_index import ModuleIndex
from jaxlint.analysis.syntax.scopes import ClassInfo, FuncInfo, Scope
from jaxlint.analysis.syntax.nodes import argument_for, arguments_by_position, named_params
from jaxlint.analysis.syntax.sequences import element_expressions
from jaxlint.analysis.model.callee_values import ClassObject, Instance, Passed, Record, Target
from jaxlint.analysis.jax.optax_transforms import OPTAX_RECORDS
from jaxlint.analysis.model.classes import class_named
from jaxlint.analysis.model.class_members import ClassMembers, has_class_decorator, is_super_call
from jaxlint.analysis.model.name_mentions import module_mentions
from jaxlint.analysis.model.names import PARTIAL, resolve

if TYPE_CHECKING:  # annotations only: transforms builds the call targets
    from jaxlint.analysis.model.transforms import Application, TransformFinder

MAX_DEPTH = 6
MAX_FORWARDS = 4


class CallTargets:
    """Call targets of one module (see the module docstring)."""

    def __init__(self, index: ModuleIndex, finder: TransformFinder):
        self.index = index
        self.finder = finder
        self.classes = finder.classes
        self._targets: Dict[int, Optional[Target]] = {}
        self._values: Dict[Tuple[int, int, bool], object] = {}
        self._active: set = set()
        self._by_site: Optional[Dict[int, Application]] = None
        self._callers: Optional[Dict[int, List[Tuple[cst.Call, Scope, Target]]]] = None
        self._app_callers: Optional[Dict[int, List[Tuple[cst.Call, Scope, Target]]]] = None
        self._plain_callers: Optional[Dict[int, List[Tuple[cst.Call, Scope, Target]]]] = None
        self.members = ClassMembers(index, finder.classes)
        self._resolved: Dict[str, bool] = {}

    # -- the API -------------------------------------------------------------------------
    def target(self, call: cst.Call, scope: Scope) -> Optional[Target]:
        """The function ``call`` (written in ``scope``) reaches, or None when not provable."""
        self._build()
        key = id(call)
        if key not in self._targets:
            self._targets[key] = None
            self._targets[key] = self._call_target(call, scope, params=True)
        return self._targets[key]

    def bind(self, t: Target, call: cst.Call, scope: Scope) -> Optional[Dict[str, Passed]]:
        """{parameter name: what lands there} for ``call`` reaching ``t``; parameters left at
        their defaults are absent.  None when a star argument makes the binding unknown."""
        if any(a.star for a in call.args):
            return None
        # a jitted callable takes the parameters its transform leaves (``self`` of a bound
        # method and a partial's arguments are already bound)
        names = t.app.jit_positional() if t.app is not None else [p.name.value for p in t.func.positional_params()]
        out: Dict[str, Passed] = dict(zip(names, t.bound))
        kwonly = {p.name.value for p in t.func.params.kwonly_params}
        for a, k in arguments_by_position(call.args, names, len(t.bound)):
            if k is None or a.keyword is not None and k not in names and k not in kwonly:
                return None  # into ``*args`` or ``**kwargs``
            out[k] = Passed(a.value, scope, call)
        for k, b in t.keywords:
            out.setdefault(k, b)
        return out

    def value(self, expr, scope: Scope) -> Optional[Target]:
        """The callable the expression ``expr`` (written in ``scope``) holds, as a call of it
        would reach it; None when it is not one the module proves."""
        self._build()
        v = self._value(expr, scope, 0, True)
        return v if isinstance(v, Target) else None

    def callers(self, func: FuncInfo) -> List[Tuple[cst.Call, Scope, Target]]:
        """Every call of the module that reaches ``func`` (not through its jit: see
        :meth:`app_callers`), with the target each reaches it as."""
        self._build()
        return self._callers.get(id(func.node), [])

    def app_callers(self, app: Application) -> List[Tuple[cst.Call, Scope, Target]]:
        """Every call of the module that reaches the jitted callable ``app``."""
        self._build()
        return self._app_callers.get(id(app), [])

    def origins(self, expr, scope: Scope, call: Optional[cst.Call], depth: int = 0, only_called: bool = False) -> Optional[List[Passed]]:
        """Where the value of ``expr`` comes from when it is a parameter of the (host)
        function ``scope`` belongs to, received as is: what every call of that function
        passes for it (:meth:`param_origins`).  ``[Passed(expr, scope, call)]`` when ``expr``
        is not such a parameter; None when not known."""
        f = self._forwarder_param(expr, scope)
        if f is None:
            return [Passed(expr, scope, call)]
        return self.param_origins(f, expr.value, depth, only_called)

    def param_origins(self, f: FuncInfo, name: str, depth: int = 0, only_called: bool = False) -> Optional[List[Passed]]:
        """What every call of the host function ``f`` passes for its parameter ``name``,
        followed the same way through up to a few forwarders (``def run(x, cfg): return
        step(x, cfg)``).  None when the function's calls are not all visible (it is also
        used as a value), or one does not pass it (a default, ``*args``).  ``only_called``:
        also None when a plain function on the way is reached other than by calls of its
        name (through a partial, an alias, as a callback)."""
        if depth >= MAX_FORWARDS:
            return None
        sites = self.callers(f)
        if not sites or not self._all_calls_resolved(f) or only_called and not self.only_called(f):
            return None
        out: List[Passed] = []
        for c, s, t in sites:
            b = self.bind(t, c, s)
            default = next((q.default for q in named_params(f.node.params) if q.name.value == name), None)
            if b is None or name not in b and default is None:
                return None
            # a parameter the call leaves out holds its default, evaluated where ``f`` is defined
            p = b.get(name, Passed(default, f.scope, None))
            if p.expr is None:
                return None  # the receiver: an object, not an argument
            up = self.origins(p.expr, p.scope, p.call, depth + 1, only_called) if p.call is not None else [p]
            if up is None:
                return None
            out.extend(up)
        return out

    def only_called(self, f: FuncInfo) -> bool:
        """A plain function whose name is written only where it is defined and where it is
        called directly (a partial, an alias or a callback adds a use whose calls are read
        another way, or not at all)."""
        if f.is_method:
            return True
        sites = self.callers(f)
        direct = [c for c, _s, _t in sites if isinstance(c.func, cst.Name) and c.func.value == f.name]
        return len(direct) == len(sites) and self.mentions(f.scope, f.name) == len(direct) + 1

    def mentions(self, owner: Scope, name: str) -> int:
        """How many times the variable ``name`` of ``owner`` is written as a name in the
        module (counted once for all)."""
        return module_mentions(self.index)[0].get((id(owner), name), 0)

    def attribute_mentions(self, attr: str) -> int:
        """How many times ``attr`` is written as the name of an attribute (``obj.attr``)."""
        return module_mentions(self.index)[0].get((0, "." + attr), 0)

    def _all_calls_resolved(self, f: FuncInfo) -> bool:
        """For a method: every ``<obj>.<name>(...)`` of the module reaches some known
        function, so that no call of an unknown receiver may be one of its calls too."""
        if not f.is_method or f.name.startswith("__"):
            return True
        known = self._resolved.get(f.name)
        if known is None:
            known = all(self.target(call, scope) is not None for call, scope in self.index.calls_of("." + f.name))
            self._resolved[f.name] = known
        return known

    # -- forwarders ----------------------------------------------------------------------
    def _forwarder_param(self, expr, scope: Scope) -> Optional[FuncInfo]:
        """The host function whose parameter ``expr`` is (bound only as the parameter)."""
        if not isinstance(expr, cst.Name) or scope.kind != "function" or scope.func is None:
            return None
        f = scope.func
        if f.is_lambda or self.finder.is_traced_def(f) or self.finder.in_traced_code(scope):
            return None
        if not scope.unrebound_param(expr.value) or expr.value in scope.globals or expr.value in scope.nonlocals:
            return None
        if f.receiver == expr.value:
            return None  # ``self``
        if not any(p.name.value == expr.value for p in f.positional_params() + list(f.params.kwonly_params)):
            return None  # ``*args`` / ``**kwargs``
        return f

    # -- the callers table ---------------------------------------------------------------
    def _build(self) -> None:
        if self._callers is not None:
            return
        # First without callables passed as parameters (they need the callers of their
        # function), then with them, the first table answering those questions.
        self._plain_callers = self._table(params=False)
        callers: Dict[int, List] = {}
        app_callers: Dict[int, List] = {}
        for call, scope, _order in self.index.calls:
            t = self._call_target(call, scope, params=True)
            self._targets[id(call)] = t
            if t is None:
                continue
            if t.app is not None:
                app_callers.setdefault(id(t.app), []).append((call, scope, t))
            else:
                callers.setdefault(id(t.func.node), []).append((call, scope, t))
        self._callers = callers
        self._app_callers = app_callers

    def _table(self, params: bool) -> Dict[int, List]:
        out: Dict[int, List] = {}
        for call, scope, _order in self.index.calls:
            t = self._call_target(call, scope, params=params)
            if t is not None and t.app is None:
                out.setdefault(id(t.func.node), []).append((call, scope, t))
        return out

    # -- resolution ----------------------------------------------------------------------
    def _call_target(self, call: cst.Call, scope: Scope, params: bool) -> Optional[Target]:
        v = self._value(call.func, scope, 0, params)
        if isinstance(v, Target):
            return v
        if isinstance(v, Instance):
            f = self.members.method(v.cls, "__call__", exact=True)
            return self._method(f, v.cls) if f is not None else None  # ``type(obj).__call__(obj, ...)``
        if isinstance(v, ClassObject):
            if any("__new__" in c.body_scope.defs for c in self.classes.mro(v.cls)) or has_class_decorator(v.cls):
                return None  # ``__new__`` or a class decorator: what is built, and how, is not read
            f = self.members.method(v.cls, "__init__", exact=True)
            return self._method(f, v.cls) if f is not None and f.is_method else None
        return None

    def _method(self, m: FuncInfo, cls: ClassInfo) -> Optional[Target]:
        """What calling the method ``m`` through an instance of ``cls`` reaches."""
        t = self._def(m) if not isinstance(m.node, cst.Lambda) else None
        if t is None or not m.is_method:
            return t  # a staticmethod: no receiver
        if t.app is not None and t.app.transform.converts:
            return None  # a custom_jvp/custom_vjp object is no descriptor: ``obj.f`` binds no ``self``
        # a function, or what jit, vmap... made of one, binds the object as ``self``
        return t._replace(bound=(Passed(None, None, None, cls),))

    def _value(self, expr, scope: Scope, depth: int, params: bool):
        """What a callee expression holds: a Target, an Instance, a ClassObject, or None."""
        if depth > MAX_DEPTH:
            return None
        key = (id(expr), id(scope), params)
        if key in self._values:
            return self._values[key]
        if key in self._active:
            return None
        self._active.add(key)
        try:
            v = self._value_of(expr, scope, depth, params)
        finally:
            self._active.discard(key)
        self._values[key] = v
        return v

    def _value_of(self, expr, scope: Scope, depth: int, params: bool):
        # Exact type tests (these node classes have no subclasses): cheaper than isinstance on
        # LibCST's abstract node classes, and this runs for every callee the analysis asks about.
        t = type(expr)
        if t is cst.Lambda:
            f = self.index.func_by_node.get(id(expr))
            return Target(f) if f is not None else None
        if t is cst.Name:
            return self._name(expr.value, scope, depth, params)
        if t is cst.Attribute:
            return self._attribute(expr, scope, depth, params)
        if t is cst.Call:
            app = self.app_at(expr)
            if app is not None:
                return self._transformed(app)
            q = resolve(expr.func, scope)
            if q in PARTIAL:
                return self._partial(expr, scope, depth, params)
            if q is not None and q.startswith("optax.") and q[len("optax.") :] in OPTAX_RECORDS:
                return Record(OPTAX_RECORDS[q[len("optax.") :]], expr, scope)
            made = self.classes.made_by_cls(expr, scope)
            if made is not None:
                return Instance(made, expr, scope)  # ``cls(...)`` in a classmethod
            m = self.classes.class_method(expr.func, scope) if type(expr.func) is cst.Attribute else None
            if m is not None:
                # ``Cls.create(...)``: what every ``return`` of the classmethod is
                return self._same([self._value(r, m.body_scope, depth + 1, params) if r is not None else None for r in possible_returns(m.node)])
            callee = self._value(expr.func, scope, depth + 1, params)
            if isinstance(callee, ClassObject):
                return Instance(callee.cls, expr, scope)
            if isinstance(callee, Target) and callee.app is None:
                # what it returns does not depend on which arguments were bound ahead of the
                # call (a method's receiver, a partial's): the same def or class either way
                return self._returned(callee.func, depth, params)
            return None
        return None

    def _name(self, name: str, scope: Scope, depth: int, params: bool):
        owner = scope.lookup_scope(name)
        if owner is None or name in owner.imports:
            return None
        alias = self.finder.aliases.get((id(owner), name))
        if alias is not None:
            return self._transformed(alias) if not alias.leading else None
        if name in owner.classes:
            cls = class_named(scope, name, sole=True)
            return ClassObject(cls) if cls is not None else None
        f = owner.sole_def(name)
        if f is not None:
            return self._def(f)
        b = owner.only_binding(name)
        if b is None or name in owner.globals or name in owner.nonlocals:
            return None
        if b.order is None:
            return None  # written from another function
        if b.kind == "assign" and b.value is not None:
            return self._value(b.value, owner, depth + 1, params)
        if b.kind == "for" and type(b.value) is cst.For and type(b.value.target) is cst.Name:
            # ``for stage in self.stages``: an element of what the loop runs over
            return self._element(b.value.iter, owner, depth + 1, params)
        if b.kind == "param" and params and owner.kind == "function":
            return self._parameter_callable(name, owner, depth)
        return None

    def _def(self, f: FuncInfo) -> Optional[Target]:
        """What the name of the def ``f`` holds: the function, or what the one transform that
        decorates it made of it (jit, vmap, custom_jvp...: a call of it calls ``f`` with the
        same arguments); None under a decorator that is no transform's."""
        decorated = [a for a in self.finder.by_func.get(id(f.node), ()) if isinstance(a.site, cst.Decorator)]
        if decorated:
            return self._transformed(decorated[0]) if len(decorated) == 1 and not rewrapped(f, decorated[0].site, decorated) else None
        return Target(f) if _undecorated(f) else None

    def _parameter_callable(self, name: str, scope: Scope, depth: int):
        """A parameter: the callable, or an instance of the one class, that every visible call
        binds to it (``def serve(engine): engine.step(x)`` after ``serve(Engine())``)."""
        f = self._forwarder_param(cst.Name(name), scope)
        if f is None or self._plain_callers is None:
            return None
        sites = self._plain_callers.get(id(f.node), [])
        if not sites:
            return None
        passed = []
        for call, s, t in sites:
            b = self.bind(t, call, s)
            if b is None or name not in b:
                return None
            passed.append((b[name].expr, b[name].scope))
        return self._agreed(passed, depth, True)

    def _agreed(self, values, depth: int, params: bool):
        """The one callable, or instances of one class, that every (expression, scope) of
        ``values`` holds; None when one is unknown (or missing) or two differ."""
        v = self._same([self._value(e, s, depth + 1, params) if e is not None else None for e, s in values])
        return v if isinstance(v, (Target, Instance)) else None

    def _attribute(self, expr: cst.Attribute, scope: Scope, depth: int, params: bool):
        attr = expr.attr.value
        base = expr.value
        cls, exact = self.members.self_class(base, scope)  # ``self``: the class or a subclass
        if cls is None and is_super_call(base, scope):
            # ``super().__init__(...)`` in a method of C: the next class after C that defines it
            here = scope.enclosing_class()
            mro = self.classes.mro(here) if here is not None else []
            for c in mro[1:]:
                m = c.body_scope.defs.get(attr)
                if m is not None:
                    if not m.is_method or isinstance(m.node, cst.Lambda) or not _undecorated(m):
                        return None
                    return Target(m, None, (Passed(None, None, None, here),))
            return None
        built = None
        if cls is None:
            v = self._value(base, scope, depth + 1, params)
            if isinstance(v, Instance):
                cls = v.cls
                built = v
            elif isinstance(v, Record):
                # ``tx.update`` of ``GradientTransformation(init_fn, update_fn)``: the function given
                given = argument_for(v.built, list(v.fields), attr) if attr in v.fields else None
                return self._value(given.value, v.scope, depth + 1, params) if isinstance(given, cst.Arg) else None
            elif isinstance(v, ClassObject):
                m = self.members.method(v.cls, attr, exact=True)
                if m is not None and not m.is_method and _undecorated(m):
                    return Target(m)  # a staticmethod through the class
                return None
            else:
                return None
        m = self.members.method(cls, attr, exact)
        if m is not None:
            return self._method(m, cls)
        if not exact and self.members.overridden(cls, attr):
            return None
        if built is not None and built.built is not None:
            given = self.members.constructor_field(built, attr)
            if given is not None:
                # ``STEPPER = Stepper(jax.jit(kernel), "main")``: the field holds what was given
                return self._value(given, built.scope, depth + 1, params) if attr not in self.members.outside_writes() else None
        return self._stored(cls, attr, depth, params)

    def _element(self, expr, scope: Scope, depth: int, params: bool):
        """What every element of the list or tuple ``expr`` is, when they all are one callable
        or instances of one class: ``[Stage(step)]``, ``[Block(k) for k in keys]``, a name
        (jaxlint.analysis.syntax.sequences) or an attribute every write binds to such a list;
        else None."""
        if depth > MAX_DEPTH:
            return None
        elements = element_expressions(expr, scope)
        if elements is not None:
            return self._same([self._value(e, s, depth + 1, params) for e, s in elements])
        t = type(expr)
        if t is cst.Attribute:
            cls, exact = self.members.self_class(expr.value, scope)
            if cls is None:
                v = self._value(expr.value, scope, depth + 1, params)
                if not isinstance(v, Instance):
                    return None
                cls = v.cls
            attr = expr.attr.value
            if attr in self.members.outside_writes() or self.classes.member(cls, attr) is not None:
                return None
            if not exact and self.members.overridden(cls, attr):
                return None
            writes = self.finder.receivers.attribute_values(cls, attr)
            if not writes or any(w is None for w, _ in writes):
                return None
            return self._same([self._element(w, s, depth + 1, params) for w, s in writes])
        return None

    @staticmethod
    def _same(values):
        """The one value all of ``values`` are: one callable, or instances of one class."""
        if not values or any(v is None for v in values):
            return None
        first = values[0]
        for v in values[1:]:
            if isinstance(first, Target) and isinstance(v, Target) and first.same(v):
                continue
            if isinstance(first, Instance) and isinstance(v, Instance) and first.cls is v.cls:
                first = Instance(first.cls)  # built by different calls: the class alone
                continue
            return None
        return first

    def _stored(self, cls: ClassInfo, attr: str, depth: int, params: bool):
        """``self.attr`` that every method of the class sets to one callable, never written
        from outside the class."""
        if attr in self.members.outside_writes():
            return None
        # a ``None`` it starts as (``self._step = None`` until a method builds the function)
        # is not what a call through it reaches: calling ``None`` raises
        writes = [w for w in self.finder.receivers.attribute_values(cls, attr) if not (type(w[0]) is cst.Name and w[0].value == "None")]
        if not writes:
            return None
        # (``self._builder = Builder()`` in every write: an instance, whose methods
        # ``self._builder.build(...)`` calls)
        return self._agreed(writes, depth, params)

    def _partial(self, call: cst.Call, scope: Scope, depth: int, params: bool) -> Optional[Target]:
        args = call.args
        if not args or args[0].keyword is not None or args[0].star or any(a.star for a in args[1:]):
            return None
        inner = self._value(args[0].value, scope, depth + 1, params)
        if not isinstance(inner, Target):
            return None
        bound = list(inner.bound)
        keywords = dict(inner.keywords)
        for a in args[1:]:
            if a.keyword is None:
                if keywords:
                    return None  # positional after keywords: the order is not followed
                bound.append(Passed(a.value, scope, None))
            else:
                keywords[a.keyword.value] = Passed(a.value, scope, None)  # bound again: replaces the inner partial's
        return Target(inner.func, inner.app, tuple(bound), tuple(keywords.items()), inner.closure)

    def _returned(self, f: FuncInfo, depth: int, params: bool):
        """What a factory returns, when every ``return`` gives the same callable, or an
        instance of the same class (``def default_rng(seed): return Rng(seed)``)."""
        if f.is_lambda or f.body_scope is None or self.finder.is_traced_def(f):
            return None
        body = f.body_scope
        found = self._same([self._value(r, body, depth + 1, params) if r is not None else None for r in possible_returns(f.node)])
        if not isinstance(found, Target):
            return found
        if found.func.scope is f.body_scope:
            found = found._replace(closure=f.body_scope)  # an inner def: it captures the factory's locals
        return found

    # -- jitted callables ----------------------------------------------------------------
    def app_at(self, call: cst.Call) -> Optional[Application]:
        """The one application ``call`` makes: of the transform it calls, or of the one a
        forwarder it calls applies (``maybe_jit(step)``), to the function it is handed."""
        by_site = self._by_site
        if by_site is None:
            by_site = self._by_site = {}
            for app in self.finder.applications:
                if isinstance(app.site, cst.Call):
                    by_site.setdefault(id(app.site), []).append(app)
        apps = by_site.get(id(call))
        return apps[0] if apps and len(apps) == 1 else None

    def _transformed(self, app: Application) -> Optional[Target]:
        if app.leading:
            return None
        return Target(app.func, app)
