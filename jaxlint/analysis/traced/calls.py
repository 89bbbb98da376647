"""Entry points and calls: every traced function of a module is interpreted from here, and a
call from traced code into a function of the module is evaluated with its abstract arguments
(memoised per abstract signature)."""

from __future__ import annotations

from typing import Callable, Dict, FrozenSet, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.model.classes import LEAF, STATIC_FIELD, annotation_class, is_classmethod, is_property
from jaxlint.analysis.traced.annotations import (
    annotation_container,
    container_uses,
    is_array_annotation,
    is_not_none_annotation,
    is_ref_name,
    is_scalar_annotation,
)
from jaxlint.analysis.traced.events import Context
from jaxlint.analysis.traced.frame import Frame
from jaxlint.analysis.traced.interpreter import Interp, guarded_not_none, structure_of
from jaxlint.analysis.jax.jax_api import KNOWN_APIS
from jaxlint.analysis.traced.lax_operands import lax_operands
from jaxlint.analysis.syntax.scopes import ClassInfo, FuncInfo, ModuleIndex, Scope
from jaxlint.analysis.syntax.nodes import argument_for
from jaxlint.analysis.model.transform_table import BRANCHES, Transform
from jaxlint.analysis.model.transforms import Application, FnRef, TransformFinder, arguments_by_parameter
from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.traced.values import (
    KNOWN_CONSTANTS,
    first_traced_name,
    to_traced,
    signature,
    ARRAY,
    ARRAYS_ONLY,
    DICT,
    Env,
    JAXARR,
    NPARR,
    NOTNONE,
    OPAQUE,
    PYSEQ,
    RAW,
    REF,
    STATIC,
    STATIC_VAL,
    TRACED,
    UNKNOWN,
    UNKNOWN_VAL,
    Val,
    default_val,
    joinall,
)


def _entry_label(t: Transform, func: FuncInfo) -> str:
    return f"{t.label} {func.name}()"

class Analyzer:
    """Interprets every traced function of a module and publishes events to the rules."""

    MAX_DEPTH = 5

    def __init__(
        self,
        index: ModuleIndex,
        finder: TransformFinder,
        handlers: Dict[str, List[Callable]],
        report: Callable,
        external=None,
    ):
        self.index = index
        self.finder = finder
        self.handlers = handlers
        self._report = report
        self.external = external  # cross-module resolver, or None
        self.memo: Dict[tuple, Val] = {}
        self.active: set = set()
        self.analyzed_entries: List[Tuple[Application, Frame]] = []
        self.classes = finder.classes
        self.receivers = finder.receivers
        self.container_cache: Dict[int, frozenset] = {}
        self._alias_by_app: Optional[Dict] = None
        self._host_values = None
        self._outer_flags: Dict[Tuple[int, str], int] = {}
        # id(def or lambda node) -> the names it reads from the functions around it
        self.free_names: Dict[int, FrozenSet[str]] = {}
        # Classes of other modules, by the name this module imports them with: given by the
        # cross-module phase when it interprets the module again knowing them.
        self.foreign: Dict[str, object] = {}
        self._passed_arguments: Dict[Tuple[int, str], list] = {}
        self._traced_fields = None

    @property
    def traced_fields(self):
        """What attributes hold where only arrays and Variables are traced (built on first use)."""
        if self._traced_fields is None:
            from jaxlint.analysis.traced.traced_fields import TracedFields

            self._traced_fields = TracedFields(self.classes, self.receivers, lambda: self.host_values)
        return self._traced_fields


    # -- plumbing ----------------------------------------------------------------
    @property
    def host_values(self):
        """Host-mode values of the module (the module analysis's, when there is one)."""
        ctx = getattr(self, "module_ctx", None)
        if ctx is not None:
            return ctx.host_values
        if self._host_values is None:
            from jaxlint.analysis.host.host_values import HostValues

            self._host_values = HostValues(self.index, self.finder, self.classes)
        return self._host_values

    def attribute_is_jax_array(self, cls, attr: str) -> bool:
        """Every value the methods of ``cls`` assign to ``self.attr`` is one JAX array."""
        key = (id(cls), "." + attr)
        known = self._outer_flags.get(key)
        if known is None:
            from jaxlint.analysis.host.host_value import JAX_ARRAY

            writes = self.receivers.attribute_values(cls, attr)
            hv = self.host_values
            known = bool(writes) and all(
                value is not None and (v := hv.value(value, scope)) is not None and v.kind == JAX_ARRAY for value, scope in writes
            )
            self._outer_flags[key] = known
        return bool(known)

    def outer_flags(self, name: str, owner) -> int:
        """What traced code reading the global or closure variable ``name`` of ``owner`` can
        rely on, wherever it reads it: JAXARR for one concrete JAX array (``W = jnp.ones(3)``
        at module level), NPARR for a NumPy array, PYSEQ for a Python list or tuple (indexing
        it needs a Python int)."""
        key = (id(owner), name)
        known = self._outer_flags.get(key)
        if known is None:
            from jaxlint.analysis.host.host_value import JAX_ARRAY, LIST, NUMPY_ARRAY, TUPLE

            from jaxlint.analysis.host.host_value import PARAM

            v = self.host_values.outer_value(name, owner)
            binds = owner.bindings.get(name, ())
            if v is None and owner.func is not None and binds and all(b.kind == "param" for b in binds):
                v = self.host_values.passed_value(owner.func, name)
            elif v is not None and v.kind == PARAM:
                # a parameter of the enclosing host function: what every call of it passes
                v = self.host_values.passed_value(owner.func, v.name)
            flags = {JAX_ARRAY: JAXARR, NUMPY_ARRAY: NPARR, LIST: PYSEQ, TUPLE: PYSEQ}
            known = self._outer_flags[key] = flags.get(v.kind, 0) if v is not None else 0
        return known

    def emit(self, event: str, frame: Frame, *args) -> None:
        hs = self.handlers.get(event)
        if not hs:
            return
        ctx = Context(frame, self)
        for h in hs:
            h(ctx, *args)

    def report(self, rule, node, frame: Frame, fields) -> None:
        # ``unhashable=True``: the value fails where JAX hashes it, tracer or concrete array; a
        # concrete array the caller passed fails where it fails anywhere
        unhashable = fields.pop("unhashable", False)
        facts = fields.get("facts")
        concrete = facts is not None and getattr(facts, "value_kind", None) == "array"
        # what the rule prevents says whether JAX raises it under grad, and whether it is a
        # tracer conversion TypeError (jaxlint/rules/prevents.py)
        prevents = rule.prevents
        if frame.entry.transform.differentiated and not prevents.under_grad and not (unhashable or concrete):
            return  # JVP tracers carry concrete values: only NumPy's conversion and item assignment fail on them
        if frame.catches_tracer_errors and prevents.tracer_type_error:
            return  # ``try: int(x) except TypeError:``: the check only when concrete, on purpose
        self._report(rule, node, frame, fields)

    # -- entry points ----------------------------------------------------------
    def run(self) -> None:
        for app in self.finder.applications:
            if self._nested_in_entry(app.func):
                continue  # interpreted inline, with the enclosing tracers in scope
            if app.nargs is not None and self._in_traced(app.site_scope):
                continue  # a lax body handed over inside traced code: interpreted there, with its operands
            if app.linen_apply and self._runs_other_method(app):
                continue
            self.analyze_entry(app)

    def _runs_other_method(self, app: Application) -> bool:
        """A jitted ``model.apply`` some call of which may name another method (``method=``,
        or keywords it cannot read): ``__call__`` is not surely what is traced."""
        for call in self.call_sites(app):
            if any(a.star == "**" or a.keyword is not None and a.keyword.value == "method" for a in call.args):
                return True
        return False

    def _nested_in_entry(self, f: FuncInfo) -> bool:
        return self._in_traced(f.scope)

    def _in_traced(self, s) -> bool:
        while s is not None:
            if s.kind == "function" and s.func is not None and self.finder.is_traced_def(s.func):
                return True
            s = s.parent
        return False

    def passed_params(self, app: Application) -> Optional[set]:
        """Parameter names some call site of the module passes; None when unknowable (every
        parameter then counts as passed)."""
        t = app.transform
        if not t.statics and not t.in_axes and not t.filtered:
            return None  # lax bodies and the like receive every operand
        f = app.func
        # At a call site a method's self is the object the method is called on.
        callable_pos = [p.name.value for p in f.positional_params()][app.bound_pos + (1 if f.is_method else 0) :]
        if app.linen_apply:
            callable_pos = ["variables"] + callable_pos
        names: set = set()
        for call in self.call_sites(app):
            npos = 0
            for a in call.args:
                if a.star:
                    return None
                if a.keyword is None:
                    npos += 1
                else:
                    names.add(a.keyword.value)
            names.update(callable_pos[:npos])
        return names

    def call_sites(self, app: Application) -> List[cst.Call]:
        """Calls of the traced callable within this module."""
        return [call for call, _scope in self.call_sites_with_scopes(app)]

    def call_sites_with_scopes(self, app: Application) -> List[Tuple[cst.Call, Scope]]:
        """Calls of the traced callable within this module, with the scope each is in."""
        out = []
        f = app.func
        site = app.site
        calls_of = self.index.calls_of
        candidates = list(calls_of(id(site)))
        if isinstance(site, cst.Decorator):
            candidates += calls_of(f.name)
            if f.cls is not None:
                candidates += calls_of("." + f.name)
        candidates += [c for name, _app in self._alias_names(app) for c in calls_of(name)]
        for call, scope in candidates:
            func = call.func
            if func is site:
                out.append((call, scope))  # jax.jit(f)(...)
                continue
            if isinstance(func, cst.Name):
                if isinstance(site, cst.Decorator) and scope.lookup_def(func.value) is f:
                    out.append((call, scope))
                else:
                    owner = scope.lookup_scope(func.value)
                    if owner is not None and self.finder.aliases.get((id(owner), func.value)) is app:
                        out.append((call, scope))
            elif (
                isinstance(func, cst.Attribute)
                and isinstance(site, cst.Decorator)
                and f.cls is not None
                and isinstance(func.value, cst.Name)
                and func.value.value in ("self", "cls")
                and func.attr.value == f.name
            ):
                out.append((call, scope))
        # calls through any other kind of callable: an attribute set in ``__init__``
        # (``self._step(x)``), a parameter every caller binds to it (``fn(x)``), a partial
        seen = {id(call) for call, _scope in out}
        for call, scope, t in self.finder.call_targets.app_callers(app):
            if id(call) in seen or t.bound or t.keywords:
                continue
            if isinstance(call.func, cst.Attribute) and f.is_method and not app.bound_self:
                continue  # ``obj.step(...)`` of an unbound method: its first argument is ``obj``
            seen.add(id(call))
            out.append((call, scope))
        return out

    def _alias_names(self, app: Application):
        names = self._alias_by_app
        if names is None:
            names = {}
            for (_sid, name), a in self.finder.aliases.items():
                names.setdefault(id(a), []).append((name, a))
            self._alias_by_app = names
        return names.get(id(app), [])

    def static_names(self, app: Application) -> Tuple[set, bool]:
        """Names of parameters made static; and whether the spec could not be read."""
        spec = app.statics
        pos = app.jit_positional()
        names = {n for n, _ in spec.names}
        for i, _node in spec.nums:
            j = i + len(pos) if i < 0 else i
            if 0 <= j < len(pos):
                names.add(pos[j])
        return names, spec.opaque

    def analyze_entry(self, app: Application) -> None:
        f = app.func
        t = app.transform
        where = _entry_label(t, f)
        frame = Frame(f, f.body_scope or f.scope, where, app, t.replays)
        frame.entry_name = where
        # ``jax.vmap(f)`` of a function that is itself decorated with ``@jax.jit`` is staged too.
        # A cond/switch branch defined in the eager host function that hands it over is a new
        # function object on each call: JAX traces it on each call (no cache hit).
        app.fresh_per_call = bool(
            t.branch and isinstance(app.site, cst.Call) and f.scope.kind == "function" and f.scope is app.site_scope
        )
        frame.staged = app.stages or any(a.stages for a in self.finder.by_func.get(id(f.node), ()) if isinstance(a.site, cst.Decorator))
        statics, opaque = self.static_names(app)
        if isinstance(app.site, cst.Call):
            # A transform over a function that is itself jitted with static parameters: the
            # inner jit hashes those first (a tracer there fails, JAX202), so its body only
            # ever sees Python values for them.
            for inner in self.finder.by_func.get(id(f.node), ()):
                if isinstance(inner.site, cst.Decorator) and inner.transform.statics and inner.transform.cached:
                    inner_statics, inner_opaque = self.static_names(inner)
                    if not inner_opaque:
                        statics = statics | inner_statics
        passed = self.passed_params(app)
        p = f.params
        positional = f.positional_params()
        skip = 0
        if app.bound_self and f.is_method and positional:
            # A bound method: ``self`` is the Python object it is bound to, its attributes
            # Python values, its methods those of the receiver's class.
            frame.env[positional[0].name.value] = Val(STATIC, None, 0, cls=app.receiver_cls or f.cls)
            skip = 1
        nargs = app.nargs
        operands = None
        if nargs is not None and isinstance(app.site, cst.Call):
            site_args = [(a, self.carried_structure(a.value, app.site_scope)) for a in app.site.args]
            operands = lax_operands(resolve(app.site.func, app.site_scope) or "", site_args)
        for i, param in enumerate(positional[skip:]):
            name = param.name.value
            if i < app.bound_pos:
                frame.env[name] = STATIC_VAL
                continue
            j = i - app.bound_pos
            if name in app.bound_false:
                frame.env[name] = KNOWN_CONSTANTS["False"]
                continue
            if name in app.bound_set:
                frame.env[name] = Val(STATIC, None, NOTNONE)
                continue
            if nargs is not None and j >= nargs and param.default is not None:
                frame.env[name] = STATIC_VAL  # the primitive does not pass it: its default stays
                continue
            if operands is not None and j < len(operands) and operands[j].cls is not None:
                frame.env[name] = to_traced(operands[j]).renamed(name)  # a carried instance of a class of the module
                continue
            if operands is not None and j < len(operands) and operands[j].container:
                o = operands[j]
                frame.env[name] = Val(TRACED, name, o.flags, o.items)  # a carried Python list/tuple/dict
                continue
            frame.env[name] = self._param_val(app, param, name, statics, opaque, passed, i, f)
        for param in p.kwonly_params:
            name = param.name.value
            if nargs is not None and param.default is not None:
                frame.env[name] = STATIC_VAL
                continue
            frame.env[name] = self._param_val(app, param, name, statics, opaque, passed, -1, f)
        if isinstance(p.star_arg, cst.Param):
            k = UNKNOWN if (opaque or t.filtered or app.opaque_axes) else TRACED
            sname = p.star_arg.name.value
            frame.env[sname] = Val(k, sname, PYSEQ | (REF if t.refs or is_ref_name(sname) else 0))
        if p.star_kwarg is not None:
            known = {x.name.value for x in positional} | {x.name.value for x in p.kwonly_params}
            k = UNKNOWN if (opaque or t.filtered or app.opaque_axes or app.bound_kw - known) else TRACED
            frame.env[p.star_kwarg.name.value] = Val(k, p.star_kwarg.name.value, DICT)
        if isinstance(app.site, cst.Call) and app.site_scope.kind == "function":
            frame.notnone = guarded_not_none(app.site_scope.node, app.site)
            # a branch made anew in the host function: its trace-time effects happen on each call
            frame.fresh = any(t is b for b in BRANCHES) and _made_in(f, app.site_scope)
        self.analyzed_entries.append((app, frame))
        self.run_frame(frame)

    def carried_structure(self, expr, scope) -> Val:
        """What host code hands a lax primitive: the structure its literals show, or an
        instance of a class of the module (a name bound to ``State(...)``, or a parameter every
        call passes one for)."""
        v = structure_of(expr, scope)
        if v.kind == UNKNOWN and isinstance(expr, cst.Name):
            r = self.receivers.receiver_of(expr, scope)
            if r is not None and r.cls is not None:
                return Val(STATIC, None, 0, cls=r.cls)
        return v

    def _param_val(self, app, param, name, statics, opaque, passed, i, f) -> Val:
        t = app.transform
        if t.differentiated:
            if app.argnums is None:
                return UNKNOWN_VAL
            j = i - app.bound_pos
            if i < 0 or j not in app.argnums:
                # not differentiated: the caller's concrete value (a JAX array stays one)
                return self.concrete_passed(app, name) or STATIC_VAL
        if name in app.bound_false:
            return KNOWN_CONSTANTS["False"]
        if name in app.bound_set:
            return Val(STATIC, None, NOTNONE)
        if name in statics or name in app.bound_kw:
            if f.is_method and param is f.positional_params()[0]:
                return Val(STATIC, None, 0, cls=f.cls)  # a static ``self``: its methods still resolve
            return STATIC_VAL
        if opaque:
            return UNKNOWN_VAL
        if param.default is not None and passed is not None and name not in passed:
            # JAX does not bind defaults the caller did not pass: they stay Python values.
            return default_val(param.default)
        if i >= 0 and i in app.unbatched and not app.opaque_axes:
            # vmap(in_axes=None) hands the value through untouched: an array every caller passes
            return self.concrete_passed(app, name) or UNKNOWN_VAL
        if i >= 0 and app.opaque_axes:
            return UNKNOWN_VAL
        if t.filtered:
            if is_array_annotation(param.annotation, f.scope):
                return Val(TRACED, name, ARRAY)
            if f.is_method and not app.bound_self and param is f.positional_params()[0]:
                # ``@eqx.filter_jit`` on a method of an eqx.Module: ``self`` is filtered too
                if self.classes.pytree_kind(f.cls) == "equinox":
                    return Val(TRACED, name, OPAQUE | ARRAYS_ONLY, cls=f.cls)
                return UNKNOWN_VAL
            return self.filtered_argument(app, name)
        if f.is_method and not app.bound_self and param is f.positional_params()[0]:
            # A traced ``self`` is a pytree of its class: the class model says which fields are
            # leaves; where it cannot tell, the fields stay unknown.
            return Val(TRACED, name, OPAQUE, cls=f.cls)
        flags = OPAQUE if t.opaque_attrs else 0
        if flags and self.arrays_or_numbers_passed(app, name):
            # every call passes a number or an array (``step(x, 0.75)``), not a module whose
            # attributes the transform carries: a plain traced array
            flags = ARRAY
        if is_not_none_annotation(param.annotation):
            # ``neighbors: NeighborList``: the caller passes one, so ``if neighbors is None:``
            # further down (in a helper it is handed to) is a branch this trace does not take.
            flags |= NOTNONE
        if t.refs or is_ref_name(name):
            return Val(TRACED, name, flags | REF)
        flags |= self.param_shape_flags(f, param, name)
        cls = self.pytree_class(param, f) if param.annotation is not None else self.passed_class(app, param, i)
        ext = None
        if cls is None and not flags & ARRAY:
            ext = self.imported_class(param, f) if param.annotation is not None else self.built_at_call_sites(app, name)
            if ext is not None:
                cls = self.foreign.get(ext)
                if cls is not None:
                    ext = None
                else:
                    uses = getattr(self.external, "uses_class", None)
                    if uses is not None:
                        uses(ext)
        return Val(TRACED, name, flags, cls=cls, ext=ext)

    def arrays_or_numbers_passed(self, app: Application, name: str) -> bool:
        """Every call site of the module passes a JAX or NumPy array or a Python number for
        ``name`` (followed through the wrappers that forward it): under nnx.jit that is a plain
        traced array, no module whose attributes may be static."""
        from jaxlint.analysis.host.host_value import JAX_ARRAY, NUMPY_ARRAY, NUMPY_SCALAR, is_number

        values = self.passed_values(app, name)
        return bool(values) and all(h.kind in (JAX_ARRAY, NUMPY_ARRAY, NUMPY_SCALAR) or is_number(h) for h in values)

    def concrete_passed(self, app: Application, name: str) -> Optional[Val]:
        """A concrete JAX (or NumPy) array, when every visible call passes one for ``name``
        to a transform that hands it over untouched; else None."""
        from jaxlint.analysis.host.host_value import JAX_ARRAY, NUMPY_ARRAY

        kind = self.passed_kind(app, name) if name in app.jit_positional() else None
        if kind == JAX_ARRAY:
            return Val(STATIC, None, JAXARR)
        if kind == NUMPY_ARRAY:
            return Val(STATIC, None, NPARR)
        return None

    def passed_kind(self, app: Application, name: str) -> Optional[str]:
        """The host kind of what every call site of the module passes for ``name`` (followed
        through the wrappers that forward it), when they all agree; else None."""
        kinds = {h.kind for h in self.passed_values(app, name) or ()}
        return kinds.pop() if len(kinds) == 1 else None

    def passed_values(self, app: Application, name: str) -> Optional[List]:
        """The host value each call site of the module passes for ``name`` (a wrapper's
        parameter followed to what the wrapper's callers pass); None when one does not show it."""
        from jaxlint.analysis.host.host_value import PARAM

        passed = self.passed_arguments(app, name)
        if not passed:
            return None
        out = []
        for call, scope, arg in passed:
            if arg is None or arg.star:
                return None
            h = self.host_values.value(arg.value, scope, call)
            if h is not None and h.kind == PARAM:
                h = self.host_values.passed_value(scope.func, h.name)
            if h is None:
                return None
            out.append(h)
        return out

    def built_at_call_sites(self, app: Application, name: str) -> Optional[str]:
        """The imported class every call of the jitted function in the module builds the
        argument for ``name`` with (``arm = Arm(w, 3)`` ... ``gate(arm, x)``), if they agree."""
        if name not in app.jit_positional() or app.bound_pos:
            return None
        found = set()
        for call, scope, arg in self.passed_arguments(app, name):
            if arg is None or isinstance(call.func, cst.Attribute):
                return None
            r = self.receivers.receiver_of(arg.value, scope)
            if r is None or r.cls is not None or r.external is None or r.built is None or r.external.startswith(KNOWN_APIS):
                return None
            found.add(r.external)
        return found.pop() if len(found) == 1 else None

    def filtered_argument(self, app: Application, name: str) -> Val:
        """A parameter of a function under equinox's filter_jit / filter_vmap, from what every
        call site of the module passes: a JAX or NumPy array is traced, a Python scalar or
        string stays the Python value (filter_jit makes it static), an instance of an
        eqx.Module class of the module is that instance with its array fields traced.  Unknown
        when a call site does not show it, or two disagree."""
        found: Optional[Val] = None
        passed = self.passed_arguments(app, name)
        if not passed:
            return UNKNOWN_VAL
        for call, scope, arg in passed:
            if arg is None:
                return UNKNOWN_VAL  # left at its default there, or behind ``*args``
            v = self.filtered_value(arg.value, scope, call, name)
            if v is None:
                return UNKNOWN_VAL
            if found is None:
                found = v
            elif signature(found) != signature(v):
                return UNKNOWN_VAL
        return found if found is not None else UNKNOWN_VAL

    def filtered_value(self, expr, scope: Scope, call: cst.Call, name: str) -> Optional[Val]:
        from jaxlint.analysis.host.host_value import INSTANCE, JAX_ARRAY, NUMPY_ARRAY, NUMPY_SCALAR, PARAM, SCALAR

        h = self.host_values.value(expr, scope, call)
        if h is not None and h.kind == PARAM:
            # a wrapper's parameter handed on: what every call of the wrapper passes
            h = self.host_values.passed_value(scope.func, h.name)
        if h is not None and h.kind in (JAX_ARRAY, NUMPY_ARRAY, NUMPY_SCALAR):
            return Val(TRACED, name, ARRAY)  # equinox's filters trace NumPy scalars too
        if h is not None and h.kind == SCALAR:
            return STATIC_VAL
        if h is not None and h.kind == INSTANCE:
            return self.filtered_instance(h.cls, name, h.fields)
        r = self.receivers.receiver_of(expr, scope)
        if r is not None and r.cls is not None:
            return self.filtered_instance(r.cls, name, None)
        return None

    def filtered_instance(self, cls: ClassInfo, name: str, fields) -> Optional[Val]:
        """An eqx.Module instance under a filtered transform; ``fields``: the host values its
        constructor was given (a dataclass without ``__init__``), else None."""
        if self.classes.pytree_kind(cls) != "equinox":
            return None
        items = None
        if fields is not None:
            from jaxlint.analysis.host.host_value import INSTANCE, JAX_ARRAY, NUMPY_ARRAY, NUMPY_SCALAR, SCALAR

            out = []
            for n in self.classes.field_names(cls):
                dotted = f"{name}.{n}"
                v = self.filtered_field(cls, n, dotted)
                h = fields.get(n)
                if v is None and h is not None:
                    if h.kind in (JAX_ARRAY, NUMPY_ARRAY, NUMPY_SCALAR):
                        v = Val(TRACED, dotted, ARRAY)
                    elif h.kind == SCALAR:
                        v = STATIC_VAL
                    elif h.kind == INSTANCE:
                        v = self.filtered_instance(h.cls, dotted, h.fields)
                out.append(v if v is not None else UNKNOWN_VAL)
            items = tuple(out)
        return Val(TRACED, name, OPAQUE | ARRAYS_ONLY, items, None, cls)

    def filtered_field(self, cls: ClassInfo, attr: str, name: Optional[str]) -> Optional[Val]:
        """``instance.attr`` where only arrays (equinox filter_*) or only Variables and arrays
        (an NNX module) are traced; None when the class does not show what it holds."""
        from jaxlint.analysis.traced.traced_fields import ARRAY as HOLDS_ARRAY, INSTANCE, LAYER, PYTHON, VARIABLE

        nnx = self.classes.is_nnx_module(cls)
        held = self.traced_fields.held(cls, attr, nnx)
        if held is None:
            return None
        kind, inner = held
        if kind == HOLDS_ARRAY:
            return Val(TRACED, name, ARRAY)
        if kind == VARIABLE:
            return Val(TRACED, name, ARRAY | REF)  # ``v[...] = x`` is its API, as a Ref's
        if kind == PYTHON:
            return STATIC_VAL
        if kind == LAYER:
            return Val(TRACED, name, OPAQUE)  # its parameters are traced; what else it holds is unknown
        if kind == INSTANCE:
            return Val(TRACED, name, OPAQUE if nnx else OPAQUE | ARRAYS_ONLY, cls=inner)
        return None

    def pytree_class(self, param, f: FuncInfo):
        """The module's class a parameter is annotated with (``state: TrainState``), if any."""
        return annotation_class(param.annotation.annotation, f.scope) if param.annotation is not None else None

    def passed_class(self, app: Application, param, i: int) -> Optional[ClassInfo]:
        """The pytree class of the module whose instances the call sites pass for ``param``
        (``run(Cfg(w, 3))``, or a name built as one), when every call site that shows what it
        passes agrees on one.  Each such call is a trace of its own, with that class."""
        f = app.func
        if f.is_method or app.bound_pos or not isinstance(app.site, (cst.Decorator, cst.Call)):
            return None
        found = None
        for _call, scope, arg in self.passed_arguments(app, param.name.value):
            if arg is None:
                continue
            r = self.receivers.receiver_of(arg.value, scope)
            cls = r.cls if r is not None else None
            if cls is None or self.classes.pytree_kind(cls) is None and not self.classes.is_nnx_module(cls):
                continue
            if found is not None and found is not cls:
                return None
            found = cls
        return found

    def passed_arguments(self, app: Application, name: str) -> List[Tuple[cst.Call, Scope, Optional[cst.Arg]]]:
        """(call, scope, argument) for each call site of the traced callable in the module: the
        argument it passes for parameter ``name``, or None where it leaves the parameter out or
        a star argument may carry it.  Computed once per parameter; the parameter's class and
        its value under a filtered transform are both read from it."""
        key = (id(app), name)
        passed = self._passed_arguments.get(key)
        if passed is None:
            pos = app.jit_positional()
            passed = []
            origins = self.finder.call_targets.origins
            for call, scope in self.call_sites_with_scopes(app):
                arg = next((a for a, lands_on in arguments_by_parameter(app, call, pos) if lands_on == name), None)
                up = origins(arg.value, scope, call) if arg is not None else None
                if up is None or len(up) == 1 and up[0].expr is arg.value:
                    passed.append((call, scope, arg))
                    continue
                # a parameter of a function that forwards it (a method, ``__call__``, a closure
                # a factory returns, a function handed on by partial): what its callers pass
                for p in up:
                    passed.append((p.call if p.call is not None else call, p.scope, cst.Arg(value=p.expr)))
            passed.extend(self._bound_passed(app, name))
            self._passed_arguments[key] = passed
        return passed

    def _bound_passed(self, app: Application, name: str) -> List[Tuple[cst.Call, Scope, Optional[cst.Arg]]]:
        """What calls through a ``functools.partial`` of the jitted callable pass for
        ``name`` (``fn = partial(apply_fn, model)`` ... ``fn(x)``): the partial's bound
        argument or the call's own, followed to its origins as a forwarded parameter is."""
        ct = self.finder.call_targets
        out: List[Tuple[cst.Call, Scope, Optional[cst.Arg]]] = []
        for call, scope, t in ct.app_callers(app):
            if not (t.bound or t.keywords):
                continue  # a plain call: among the call sites
            b = ct.bind(t, call, scope)
            p = b.get(name) if b is not None else None
            if p is None or p.expr is None:
                out.append((call, scope, None))
                continue
            up = ct.origins(p.expr, p.scope, p.call) if p.call is not None else [p]
            if up is None:
                out.append((call, scope, None))
                continue
            for q in up:
                out.append((q.call if q.call is not None else call, q.scope, cst.Arg(value=q.expr)))
        return out

    @staticmethod
    def imported_class(param, f: FuncInfo) -> Optional[str]:
        """The imported name a parameter is annotated with (``robot: Robot`` after ``from .models
        import Robot``): maybe a class of another module of the run, which the cross-module
        phase looks up."""
        if param.annotation is None:
            return None
        return resolve(param.annotation.annotation, f.scope)

    # -- instances of the module's classes -------------------------------------------
    def instance_attribute(self, frame: Frame, base: Val, attr: str, name: Optional[str]) -> Optional[Val]:
        """``base.attr`` for an instance of a class of the module: a bound method, a property
        evaluated with the receiver, a constructed field, or a field by the pytree model.
        None when the class does not say (the caller falls back to what the value shows)."""
        cls = base.cls
        f = self.classes.member(cls, attr)
        if f is not None:
            ref = FnRef(f)
            if is_property(f):
                ref.bound_self = True
                return self.call_function(frame, None, (ref, None, [], {}), [], base)
            if not f.is_method:
                return Val(STATIC, attr, 0, None, (ref, None, [], {}))
            receiver = Val(STATIC, None, 0, cls=cls) if is_classmethod(f) else base
            return Val(STATIC, attr, 0, None, (ref, None, [receiver], {}))
        if base.items is not None:
            names = self.classes.field_names(cls)
            if attr in names and names.index(attr) < len(base.items):
                return base.items[names.index(attr)]
        if base.kind == STATIC:
            # An attribute of a Python object (a bound method's ``self``): an instance of the
            # class its methods build it with (``self.model = Model(...)``), if they agree.
            r = self.receivers.attribute_receiver(cls, attr)
            if r is not None and r.cls is not None:
                return Val(STATIC, None, 0, cls=r.cls)
            if self.classes.member(cls, attr) is None and self.attribute_is_jax_array(cls, attr):
                return Val(STATIC, None, JAXARR)  # ``self.A = jnp.eye(n)``: a concrete JAX array
            return None
        if base.kind != TRACED:
            return None
        if base.flags & ARRAYS_ONLY or self.classes.is_nnx_module(cls):
            return self.filtered_field(cls, attr, name)
        kind = self.classes.field_kind(cls, attr)
        if kind == LEAF:
            return Val(TRACED, name, 0, cls=self.classes.field_class(cls, attr))
        if kind == STATIC_FIELD:
            return STATIC_VAL
        return None

    def construct(self, frame: Frame, call: cst.Call, cls, argvals) -> Val:
        """``Cls(...)`` in traced code: a NamedTuple or dataclass keeps its fields one by one."""
        kinds = [v.kind for _, v in argvals]
        kind = max(kinds, default=STATIC)
        names = self.classes.field_names(cls)
        pytree = self.classes.pytree_kind(cls)
        if pytree in ("namedtuple", "dataclass", "equinox") and names and not self.classes.has_own_init(cls):
            if not any(a.star for a, _ in argvals):
                given: Dict[str, Val] = {}
                pos = [v for a, v in argvals if a.keyword is None]
                for n, v in zip(names, pos):
                    given[n] = v
                for a, v in argvals:
                    if a.keyword is not None:
                        given[a.keyword.value] = v
                items = tuple(given.get(n, STATIC_VAL) for n in names)
                return Val(max((i.kind for i in items), default=STATIC), first_traced_name(items), 0, items, None, cls)
        if kind == STATIC:
            return Val(STATIC, None, 0, cls=cls)
        return UNKNOWN_VAL

    def replaced(self, base: Val, argvals) -> Val:
        """``x._replace(f=v)`` / ``x.replace(f=v)``: the same class with those fields changed."""
        names = self.classes.field_names(base.cls)
        if base.items is not None and all(a.keyword is not None for a, _ in argvals):
            items = list(base.items)
            for a, v in argvals:
                if a.keyword.value in names and names.index(a.keyword.value) < len(items):
                    items[names.index(a.keyword.value)] = v
            items = tuple(items)
            return Val(max((i.kind for i in items), default=STATIC), first_traced_name(items), 0, items, None, base.cls)
        kind = max([base.kind] + [v.kind for _, v in argvals])
        if kind != base.kind:
            return UNKNOWN_VAL
        return Val(base.kind, base.name, base.flags, None, None, base.cls)

    def param_shape_flags(self, f: FuncInfo, param, name: str) -> int:
        """ARRAY when the parameter is surely an array or scalar; RAW when it may be a pytree
        container (it is indexed, iterated, unpacked, compared with None...): then its bare
        truthiness (``if p:``) is a container or None check, not a bool conversion."""
        if is_array_annotation(param.annotation, f.scope) or is_scalar_annotation(param.annotation):
            return ARRAY
        cf = annotation_container(param.annotation)
        if cf:
            return cf
        d = param.default
        if isinstance(d, (cst.Integer, cst.Float)) or isinstance(d, cst.Name) and d.value in ("True", "False"):
            return ARRAY
        if name in container_uses(f.node, self.container_cache):
            return RAW
        return 0

    # -- functions called from traced code --------------------------------------
    def call_function(
        self,
        frame: Frame,
        call: Optional[cst.Call],
        fnval: tuple,
        argvals: List[Tuple[cst.Arg, Val]],
        self_val: Optional[Val] = None,
    ) -> Val:
        ref, closure, bound_args, bound_kw = fnval
        f: FuncInfo = ref.func
        # The body is interpreted even when no argument is traced: what it returns (a jnp
        # result is a tracer) and what it does (a print, an append) both happen under the trace.
        with_traced = (
            any(v.kind == TRACED for _, v in argvals)
            or any(v.kind == TRACED for v in bound_args)
            or (self_val is not None and self_val.kind == TRACED)
        )
        if frame.depth >= self.MAX_DEPTH:
            return UNKNOWN_VAL
        env: Env = {}
        positional = f.positional_params()
        p = f.params
        idx = 0
        if ref.bound_self and f.is_method and positional:
            env[positional[0].name.value] = self_val if self_val is not None else Val(STATIC, None, 0, cls=f.cls)
            idx = 1
        for v in bound_args:
            if idx < len(positional):
                env[positional[idx].name.value] = v
            idx += 1
        star_seen = False
        kwargs_seen = False
        extra_pos: List[Val] = []
        extra_kw: Dict[str, Val] = {}
        named = {x.name.value for x in positional} | {x.name.value for x in p.kwonly_params}
        for a, v in _spread(argvals):
            if a is None:  # ``**kwargs`` forwarded with keys the analysis knows
                k, v = v
                if k in named or p.star_kwarg is None:
                    env[k] = v
                else:
                    extra_kw[k] = v
                continue
            if a.keyword is not None:
                if a.keyword.value in named or p.star_kwarg is None:
                    env[a.keyword.value] = v
                else:
                    extra_kw[a.keyword.value] = v
                continue
            if a.star == "**":
                kwargs_seen = True
                continue
            if a.star:
                star_seen = True
                continue
            if star_seen:
                continue
            if idx < len(positional):
                env[positional[idx].name.value] = v
            else:
                extra_pos.append(v)
            idx += 1
        for k, v in bound_kw.items():
            env.setdefault(k, v)
        for param in positional + list(p.kwonly_params):
            name = param.name.value
            if name not in env:
                if star_seen:
                    env[name] = UNKNOWN_VAL
                elif param.default is not None:
                    env[name] = default_val(param.default)
                else:
                    env[name] = UNKNOWN_VAL
        if isinstance(p.star_arg, cst.Param):
            sname = p.star_arg.name.value
            if star_seen:
                env[sname] = Val(joinall(extra_pos).kind if extra_pos else STATIC, sname, PYSEQ)
            else:
                # the exact positional arguments: ``f(*args)`` in the helper hands them on as they are
                env[sname] = Val(joinall(extra_pos).kind if extra_pos else STATIC, sname, PYSEQ, tuple(extra_pos))
        if p.star_kwarg is not None:
            kname = p.star_kwarg.name.value
            if kwargs_seen or star_seen:
                env[kname] = Val(UNKNOWN, None, DICT)
            else:
                vals = tuple(extra_kw.values())
                env[kname] = Val(joinall(vals).kind if vals else STATIC, kname, DICT, vals, None, None, tuple(extra_kw))
        for app in self.finder.by_func.get(id(f.node), ()):
            # Calling a function that is itself jitted with static parameters: those stay Python
            # values inside it (a tracer passed there is a different error, at the call).
            if isinstance(app.site, cst.Decorator) and app.transform.statics:
                statics, opaque = self.static_names(app)
                for n in statics:
                    if n in env:
                        v = env[n]
                        traced = v.kind == TRACED and not v.flags & (RAW | OPAQUE | REF | PYSEQ | DICT)
                        if call is not None and (traced or v.kind == STATIC and v.flags & (JAXARR | NPARR)):
                            # a tracer, or a concrete array: neither is hashable
                            skip = (1 if ref.bound_self and f.is_method else 0) + len(bound_args)
                            arg = argument_for(call, [q.name.value for q in positional][skip:], n)
                            if isinstance(arg, cst.Arg):
                                self.emit("traced_static_arg", frame, arg, n, f, v)
                        env[n] = STATIC_VAL
        if call is not None and not f.is_lambda and f.node.decorators:
            for n in custom_vjp_nondiff(f):
                v = env.get(n)
                if v is not None and v.kind == TRACED and not v.flags & (RAW | OPAQUE | REF | PYSEQ | DICT):
                    arg = argument_for(call, [q.name.value for q in positional][len(bound_args):], n)
                    if isinstance(arg, cst.Arg):
                        self.emit("traced_static_arg", frame, arg, n, f, v, ": custom_vjp's nondiff_argnums take no tracers")
        for param in positional + list(p.kwonly_params):
            v = env.get(param.name.value)
            if v is not None and v.kind == TRACED and not v.container:
                cf = annotation_container(param.annotation)
                if cf:
                    env[param.name.value] = Val(TRACED, v.name, cf)
        for n, v in list(env.items()):
            if v.kind == TRACED and v.fn is None and (v.name != n or is_ref_name(n)):
                # name parameters as the helper does; ``*_ref`` parameters are Pallas Refs
                env[n] = v.renamed(n, REF if is_ref_name(n) else 0)
        # A jitted function (``@jax.jit``, ``g = jax.jit(f)``, ``jax.jit(f)(x)``) is staged
        # wherever it is called from, a vmapped-only frame too.
        staged = (
            frame.staged
            or ref.stages
            or ref.jit is not None and ref.jit.stages
            or any(a.stages for a in self.finder.by_func.get(id(f.node), ()) if isinstance(a.site, cst.Decorator))
        )
        key = (
            id(f.node),
            tuple(sorted((n, signature(v)) for n, v in env.items())),
            frame.cached,
            frame.fresh,
            staged,
            frame.catches_tracer_errors > 0,
            id(closure) if closure else 0,
        )
        if key in self.memo:
            return self.memo[key]
        if key in self.active:
            return UNKNOWN_VAL
        self.active.add(key)
        where = f"{f.name}(), called {'with traced values ' if with_traced else ''}from {frame.entry_name}"
        sub = Frame(f, f.body_scope or f.scope, where, frame.entry, frame.cached)
        sub.entry_name = frame.entry_name
        sub.env = env
        sub.closure = closure
        sub.depth = frame.depth + 1
        sub.catches_tracer_errors = frame.catches_tracer_errors
        sub.staged = staged
        sub.fresh = frame.fresh
        try:
            result = self.run_frame(sub)
        finally:
            self.active.discard(key)
        self.memo[key] = result
        return result

    def trace_inline(
        self,
        frame: Frame,
        fnval: tuple,
        label: str,
        statics: set = frozenset(),
        operands: Optional[List[Val]] = None,
        stages: bool = True,
    ) -> None:
        """A function handed to a tracing transform inside traced code.  ``operands``: what a lax
        primitive passes positionally (the carry keeps its pytree structure); further parameters
        keep their defaults.  Without ``operands`` every parameter is traced.  ``stages``: the
        transform stages the function (it is staged anyway inside a staged frame)."""
        ref, closure, bound_args, bound_kw = fnval
        f: FuncInfo = ref.func
        if frame.depth >= self.MAX_DEPTH:
            return
        staged = frame.staged or stages
        key = (id(f.node), "inline", frame.cached, frame.fresh, staged, id(closure) if closure else 0)
        if key in self.memo or key in self.active:
            return
        self.active.add(key)
        sub = Frame(f, f.body_scope or f.scope, f"{label} {f.name}() inside {frame.entry_name}", frame.entry, frame.cached)
        sub.entry_name = frame.entry_name
        sub.closure = closure
        sub.depth = frame.depth + 1
        sub.staged = staged
        sub.fresh = frame.fresh
        positional = f.positional_params()
        p = f.params
        skip = 1 if (ref.bound_self and f.is_method) else 0
        nb = len(bound_args)
        for i, param in enumerate(positional):
            name = param.name.value
            j = i - skip - nb  # index among the operands the primitive passes
            if i < skip or i - skip < nb or name in statics or name in bound_kw:
                if i < skip:
                    sub.env[name] = STATIC_VAL
                elif i - skip < nb:
                    sub.env[name] = bound_args[i - skip]
                else:
                    # what functools.partial bound reaches the body: ``partial(f, k=None)`` makes
                    # ``if k is None:`` the branch taken, ``k=expr`` the branch not taken
                    sub.env[name] = bound_kw.get(name, STATIC_VAL)
            elif operands is not None and j < len(operands):
                v = operands[j]
                sub.env[name] = Val(v.kind, name, v.flags | (REF if is_ref_name(name) else 0), v.items, None, v.cls) if v.kind == TRACED else v
            elif operands is not None and param.default is not None:
                sub.env[name] = STATIC_VAL
            else:
                sub.env[name] = Val(TRACED, name, REF if is_ref_name(name) else self.param_shape_flags(f, param, name))
        for param in p.kwonly_params:
            name = param.name.value
            if name in bound_kw:
                sub.env[name] = bound_kw[name]
            else:
                sub.env[name] = STATIC_VAL if (name in statics or param.default is not None) else Val(TRACED, name)
        if isinstance(p.star_arg, cst.Param):
            sname = p.star_arg.name.value
            sub.env[sname] = Val(TRACED, sname, PYSEQ | (REF if is_ref_name(sname) else 0))
        if p.star_kwarg is not None:
            known = {x.name.value for x in positional} | {x.name.value for x in p.kwonly_params}
            k = UNKNOWN if set(bound_kw) - known or ref.bound_kw - known else TRACED
            sub.env[p.star_kwarg.name.value] = Val(k, p.star_kwarg.name.value, DICT)
        try:
            self.run_frame(sub)
        finally:
            self.active.discard(key)
        self.memo[key] = STATIC_VAL

    def run_frame(self, frame: Frame) -> Val:
        node = frame.func.node
        if isinstance(node, cst.Lambda):
            v = Interp(self, frame).eval(node.body)
            return v
        Interp(self, frame).block(node.body)
        if not frame.returns:
            return STATIC_VAL
        return joinall(frame.returns)

def _made_in(f: FuncInfo, scope: Scope) -> bool:
    """``f`` is a lambda or def written inside the function ``scope`` is the body of: each
    run of that function makes a new one."""
    s = f.scope
    while s is not None:
        if s is scope:
            return True
        s = s.parent
    return False


def custom_vjp_nondiff(f: FuncInfo) -> List[str]:
    """Parameters of ``@partial(jax.custom_vjp, nondiff_argnums=...)`` (or
    ``@jax.custom_vjp(nondiff_argnums=...)``): a tracer there fails (UnexpectedTracerError);
    ``custom_jvp`` takes one."""
    for d in f.node.decorators:
        dec = d.decorator
        if not isinstance(dec, cst.Call):
            continue
        q = resolve(dec.func, f.scope)
        args = dec.args
        if q == "functools.partial" and args and args[0].keyword is None:
            q, args = resolve(args[0].value, f.scope), args[1:]
        if q != "jax.custom_vjp":
            continue
        names = [p.name.value for p in f.positional_params()]
        out = []
        for a in args:
            if a.keyword is not None and a.keyword.value == "nondiff_argnums":
                items = [el.value for el in a.value.elements] if isinstance(a.value, (cst.Tuple, cst.List)) else [a.value]
                for it in items:
                    if isinstance(it, cst.Integer) and int(it.value) < len(names):
                        out.append(names[int(it.value)])
        return out
    return []


def _spread(argvals):
    """The arguments of a call with ``*args`` / ``**kwargs`` opened where their structure is
    known (a helper forwarding what it was given): positional items as plain arguments, known
    keywords as (None, (key, value)) pairs."""
    out = []
    for a, v in argvals:
        if a.star == "*" and v.items is not None and v.keys is None:
            out.extend((cst.Arg(value=a.value), item) for item in v.items)
        elif a.star == "**" and v.keys is not None and v.items is not None and len(v.keys) == len(v.items):
            out.extend((None, (k, item)) for k, item in zip(v.keys, v.items))
        else:
            out.append((a, v))
    return out


