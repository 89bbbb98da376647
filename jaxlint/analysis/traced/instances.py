"""Instances of the module's classes in traced code: an attribute read on one (a bound method,
a property, a field by the pytree model, a field of an equinox or NNX module where only arrays
and Variables are traced), a constructor call, and ``replace``.

Separate from calls of functions (``function_calls.py``): the class model (fields, leaves,
static metadata) decides these, not a function body.
"""

from __future__ import annotations

from typing import Dict, Optional

import libcst as cst

from jaxlint.analysis.model.classes import LEAF, STATIC_FIELD, class_named, is_cached_property, is_classmethod, is_property, reads_self_attribute
from jaxlint.analysis.model.transforms import FnRef
from jaxlint.analysis.syntax.nodes import named_params
from jaxlint.analysis.syntax.scopes import ClassInfo
from jaxlint.analysis.traced.annotations import annotation_container
from jaxlint.analysis.traced.frame import Frame
from jaxlint.analysis.traced import values as lattice
from jaxlint.analysis.traced.from_host import FILTERED, host_val
from jaxlint.analysis.traced.traced_fields import ARRAY as HOLDS_ARRAY, INSTANCE as HOLDS_INSTANCE, INSTANCES, LAYER, PYTHON, VARIABLE


class Instances:
    """The Analyzer's values of instances of the module's classes (combined into ``Analyzer``)."""

    def filtered_instance(self, cls: ClassInfo, name: str, fields) -> Optional[lattice.Val]:
        """An eqx.Module instance under a filtered transform; ``fields``: the host values its
        constructor was given (a dataclass without ``__init__``), else None.  A NamedTuple or
        a dataclass pytree (``flax.struct``) is filtered the same way, leaf by leaf, when its
        fields are known: an array leaf traced, a Python leaf and static metadata Python values."""
        kind = self.classes.pytree_kind(cls)
        if kind != "equinox" and (kind not in ("namedtuple", "dataclass") or fields is None):
            return None
        items = None
        if fields is not None:
            out = []
            for n in self.classes.field_names(cls):
                dotted = f"{name}.{n}"
                if kind == "equinox":
                    v = self.filtered_field(cls, n, dotted)
                else:
                    v = lattice.STATIC_VAL if self.classes.field_kind(cls, n) == STATIC_FIELD else None
                out.append(v if v is not None else host_val(fields.get(n), self.classes, FILTERED, dotted, self.filtered_instance))
            items = tuple(out)
        return lattice.Val(lattice.TRACED, name, lattice.OPAQUE | lattice.ARRAYS_ONLY, items, None, cls)

    def filtered_field(self, cls: ClassInfo, attr: str, name: Optional[str]) -> Optional[lattice.Val]:
        """``instance.attr`` where only arrays (equinox filter_*) or only Variables and arrays
        (an NNX module) are traced; None when the class does not show what it holds."""

        nnx = self.classes.is_nnx_module(cls)
        held = self.traced_fields.held(cls, attr, nnx)
        if held is None:
            return None
        kind, inner = held
        if kind == HOLDS_ARRAY:
            return lattice.Val(lattice.TRACED, name, lattice.ARRAY)
        if kind == VARIABLE:
            return lattice.Val(lattice.TRACED, name, lattice.ARRAY | lattice.REF)  # ``v[...] = x`` is its API, as a Ref's
        if kind == PYTHON:
            return lattice.STATIC_VAL
        if kind == LAYER:
            return lattice.Val(lattice.TRACED, name, lattice.OPAQUE)  # its parameters are traced; what else it holds is unknown
        if kind == HOLDS_INSTANCE:
            return lattice.Val(lattice.TRACED, name, lattice.OPAQUE if nnx else lattice.OPAQUE | lattice.ARRAYS_ONLY, cls=inner)
        if kind == INSTANCES:
            # a Python list of modules (``self.blocks = [Block(k) for k in keys]``): the list is
            # structure, each element filtered as one instance
            element = lattice.Val(lattice.TRACED, name, lattice.OPAQUE if nnx else lattice.OPAQUE | lattice.ARRAYS_ONLY, cls=inner)
            return lattice.Val(lattice.TRACED, name, lattice.PYSEQ | (0 if nnx else lattice.ARRAYS_ONLY), elem=element)
        return None

    def instance_attribute(self, frame: Frame, base: lattice.Val, attr: str, name: Optional[str]) -> Optional[lattice.Val]:
        """``base.attr`` for an instance of a class of the module: a bound method, a property
        evaluated with the receiver, a constructed field, or a field by the pytree model.
        None when the class does not say (the caller falls back to what the value shows)."""
        cls = base.cls
        f = self.classes.member(cls, attr)
        if f is not None:
            ref = FnRef(f)
            get = self._descriptor_get(f)
            if get is not None:
                # ``@lazy_property`` on the method, a class of the module with ``__get__``: the
                # read runs ``__get__(descriptor, obj, type)``, the descriptor made with the def
                wrapped = [(cst.Arg(cst.Name(f.name)), lattice.Val(lattice.STATIC, f.name, 0, None, (ref, None, [], {})))]
                descriptor = self.construct(frame, None, get.cls, wrapped)
                return self.call_function(frame, None, (FnRef(get, True), None, [], {}), [(cst.Arg(cst.Name("obj")), base), (cst.Arg(cst.Name("cls")), lattice.STATIC_VAL)], descriptor)
            if is_property(f):
                init = self.classes.member(cls, "__init__")
                if is_cached_property(f) and not base.flags & lattice.MADE_IN_TRACE and init is not None and reads_self_attribute(init, attr):
                    # computed by the constructor, on the host: the trace reads the cached value
                    # (an instance built in the trace computes it there, in ``__init__``)
                    return lattice.STATIC_VAL
                ref.bound_self = True
                return self.call_function(frame, None, (ref, None, [], {}), [], base)
            if not f.is_method:
                return lattice.Val(lattice.STATIC, attr, 0, None, (ref, None, [], {}))
            receiver = lattice.Val(lattice.STATIC, None, 0, cls=cls) if is_classmethod(f) else base
            return lattice.Val(lattice.STATIC, attr, 0, None, (ref, None, [receiver], {}))
        if base.attrs is not None:
            stored = self.stored_attribute(base, attr)
            if stored is not None:
                return stored
        if base.items is not None:
            names = self.classes.field_names(cls)
            if attr in names and names.index(attr) < len(base.items):
                return base.items[names.index(attr)]
        if base.kind == lattice.STATIC:
            # An attribute of a Python object (a bound method's ``self``): an instance of the
            # class its methods build it with (``self.model = Model(...)``), if they agree.
            r = self.receivers.attribute_receiver(cls, attr)
            if r is not None and r.cls is not None:
                return lattice.Val(lattice.STATIC, None, 0, cls=r.cls)
            e = self.receivers.attribute_element(cls, attr)
            if e is not None:
                # ``self.stages = [Scale(f) for f in factors]``: a Python list of instances
                return lattice.Val(lattice.STATIC, None, lattice.PYSEQ, elem=lattice.Val(lattice.STATIC, None, 0, cls=e.cls))
            if self.classes.member(cls, attr) is None and self.attribute_is_jax_array(cls, attr):
                return lattice.Val(lattice.STATIC, None, lattice.JAXARR)  # ``self.A = jnp.eye(n)``: a concrete JAX array
            return None
        if base.kind != lattice.TRACED:
            return None
        if base.flags & lattice.ARRAYS_ONLY or self.classes.is_nnx_module(cls):
            return self.filtered_field(cls, attr, name)
        kind = self.classes.field_kind(cls, attr)
        if kind == LEAF:
            # ``dims: Optional[Tuple[int, ...]]``: a tuple of leaves (or None), whose truth is
            # a Python test of its length, not a tracer's
            return lattice.Val(lattice.TRACED, name, self._container_field(cls, attr), cls=self.classes.field_class(cls, attr))
        if kind == STATIC_FIELD:
            if self.attribute_is_jax_array(cls, attr):
                # metadata holding a JAX array: a concrete array, which any operation stages
                return lattice.Val(lattice.STATIC, None, lattice.JAXARR)
            return lattice.STATIC_VAL
        return None

    def _descriptor_get(self, f):
        """The ``__get__`` of the class of the module that decorates ``f``, if one does."""
        for d in getattr(f.node, "decorators", ()):
            cls = class_named(f.scope, d.decorator.value, sole=True) if isinstance(d.decorator, cst.Name) else None
            get = self.classes.member(cls, "__get__") if cls is not None else None
            if get is not None and get.is_method:
                return get
        return None

    def constructed_attributes(self, h) -> Optional[lattice.InstanceAttributes]:
        """What an object host code built (``h``, an instance of a class of the module) holds
        as Python constants from its construction: ``self.a = a`` in its class's ``__init__``,
        given None, True or False or left to such a default, where nothing else in the module
        assigns ``.a``.  Traced code reading ``obj.a`` reads that constant, so a test of it is
        decided while tracing (``if self.fit_by is not None:`` with no ``fit_by`` given)."""
        call, cls = h.node, h.cls
        key = id(call)
        if key in self._constructed_attrs:
            return self._constructed_attrs[key]
        self._constructed_attrs[key] = table = None
        c = self.classes.constructor(cls) if cls is not None else None
        args = self.classes.parameter_arguments(cls, call.args) if c is not None and c.init is not None and isinstance(call, cst.Call) else None
        # (``setattr`` may write any attribute: what the object holds is then not shown)
        if args is not None and not any(isinstance(f.func, cst.Name) and f.func.value == "setattr" for f, _s, _o in self.index.calls):
            defaults = {p.name.value: p.default for p in named_params(c.init.node.params)}
            starred = any(a.star for a in call.args)  # may carry a parameter it does not name
            rebound: Dict[str, int] = {}
            for w in self.index.attribute_writes:
                if not w.in_place:
                    rebound[w.attr] = rebound.get(w.attr, 0) + 1
            table = lattice.InstanceAttributes(False)
            for attr, p in c.stores.items():
                given = args[p].value if p in args else None if starred else defaults[p]
                if rebound.get(attr) == 1 and isinstance(given, cst.Name) and given.value in lattice.KNOWN_CONSTANTS:
                    table[attr] = lattice.KNOWN_CONSTANTS[given.value]
            table = self._constructed_attrs[key] = table or None
        return table

    def stored_attribute(self, base: lattice.Val, attr: str) -> Optional[lattice.Val]:
        """``obj.attr`` of an object the trace built: what its code stored there; of an object
        given a tracer, an attribute stored where the interpreter did not follow is unknown
        (one set in the class body is the class's Python value)."""
        stored = base.attrs.get(attr)
        if stored is not None:
            return stored
        if base.attrs.fed_traced and not any(attr in c.body_scope.bindings for c in self.classes.mro(base.cls)):
            return lattice.UNKNOWN_VAL
        return None

    def _container_field(self, cls, attr: str) -> int:
        """DICT / PYSEQ when the field's declaration says it holds a Python container."""
        decl = self.classes.field_declaration(cls, attr)[1]
        return annotation_container(decl.annotation) if decl is not None else 0

    def construct(self, frame: Frame, call: cst.Call, cls, argvals) -> lattice.Val:
        """``Cls(...)`` in traced code: its ``__init__`` runs in the trace, on the arguments as
        the trace holds them (a test of a traced argument there fails as it would anywhere in
        the trace); a NamedTuple or dataclass keeps its fields one by one."""
        init = self.classes.member(cls, "__init__")
        kinds = [v.kind for _, v in argvals]
        kind = max(kinds, default=lattice.STATIC)
        made = lattice.Val(lattice.STATIC, None, lattice.MADE_IN_TRACE, cls=cls)
        if init is not None and init.is_method:
            ref = FnRef(init, True)
            if self.classes.pytree_kind(cls) is None:
                # A plain Python object: the trace holds the object itself, and its attributes
                # are what ``__init__`` stored there (traced where it stored a tracer).
                made.attrs = lattice.InstanceAttributes(kind != lattice.STATIC)
            self.call_function(frame, call, (ref, None, [], {}), argvals, made)
            if made.attrs is not None:
                return made
        names = self.classes.field_names(cls)
        given = self.classes.constructor_arguments(cls, [a for a, _ in argvals])
        if self.classes.pytree_kind(cls) in ("namedtuple", "dataclass", "equinox") and names and given is not None:
            vals = {id(a.value): v for a, v in argvals}
            given = {n: vals[id(e)] for n, e in given.items()}
            for n in self.classes.converted_fields(cls):
                given[n] = lattice.UNKNOWN_VAL  # what the field's converter made of the argument
            items = tuple(given.get(n, lattice.STATIC_VAL) for n in names)
            return lattice.Val(max((i.kind for i in items), default=lattice.STATIC), lattice.first_traced_name(items), 0, items, None, cls)
        if kind == lattice.STATIC:
            return lattice.Val(lattice.STATIC, None, lattice.MADE_IN_TRACE, cls=cls)
        return lattice.UNKNOWN_VAL

    def replaced(self, base: lattice.Val, argvals) -> lattice.Val:
        """``x._replace(f=v)`` / ``x.replace(f=v)``: the same class with those fields changed."""
        names = self.classes.field_names(base.cls)
        if base.items is not None and all(a.keyword is not None for a, _ in argvals):
            items = list(base.items)
            for a, v in argvals:
                if a.keyword.value in names and names.index(a.keyword.value) < len(items):
                    items[names.index(a.keyword.value)] = v
            items = tuple(items)
            return lattice.Val(max((i.kind for i in items), default=lattice.STATIC), lattice.first_traced_name(items), 0, items, None, base.cls)
        kind = max([base.kind] + [v.kind for _, v in argvals])
        if kind != base.kind:
            return lattice.UNKNOWN_VAL
        return lattice.Val(base.kind, base.name, base.flags, None, None, base.cls)
