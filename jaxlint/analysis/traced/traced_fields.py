"""Which attributes of an object are traced where a transform decides it by what each attribute
holds, not by the class's pytree declaration (checked with equinox 0.13.8 and flax 0.12.8):

* equinox ``filter_jit`` / ``filter_vmap`` trace the arrays among an argument's leaves (JAX and
  NumPy arrays) and hand every other leaf in as the Python value it is: an ``eqx.Module`` field
  holding ``3`` is ``3`` inside, one holding ``jnp.ones(3)`` is a tracer.
* A Flax NNX module (under ``nnx.jit``, and under ``jax.jit``: NNX modules are pytrees) is
  flattened into its Variables (``nnx.Param(...)``, ``nnx.Variable(0)``) and arrays, which are
  traced; its other attributes (numbers, strings, flags) are static structure, Python values.

What an attribute holds is read from the class: its declaration (``eqx.field(static=True)``,
``w: jax.Array``, ``n: int``) and every assignment of it in the class's methods, which must agree
(``self.w = nnx.Param(...)``, ``self.n = 3``, ``self.encoder = Encoder(...)`` of a class of the
module, ``self.linear = nnx.Linear(...)`` of a library).  Anything else is unknown.
"""

from __future__ import annotations

from typing import Callable, Optional, Tuple

import libcst as cst

from jaxlint.analysis.traced.annotations import is_array_annotation, is_scalar_annotation
from jaxlint.analysis.model.classes import STATIC_FIELD, ClassModel, annotation_class
from jaxlint.analysis.traced.from_host import FILTERED, NNX_ARRAYS, host_val
from jaxlint.analysis.traced import values as lattice
from jaxlint.analysis.jax.jax_api import is_layer_class
from jaxlint.analysis.model.nnx_state import NNX_VARIABLE
from jaxlint.analysis.model.receivers import ReceiverModel, element_annotation
from jaxlint.analysis.syntax.scopes import ClassInfo
from jaxlint.analysis.model.names import resolve

# what an attribute holds
ARRAY = "array"  # a JAX or NumPy array: traced
VARIABLE = "variable"  # an NNX Variable: traced, and updated in place through ``v[...] = x``
PYTHON = "python"  # a number, string, None, function: a Python value inside
INSTANCE = "instance"  # an instance of a class of the module (its own attributes decide)
LAYER = "layer"  # a library layer (``nnx.Linear``): its parameters traced, the rest unknown
INSTANCES = "instances"  # a Python list or tuple of instances of one class of the module

Held = Tuple[str, Optional[ClassInfo]]

class TracedFields:
    """What the attributes of instances of the module's classes hold, memoised per class and
    attribute.  ``host_values``: a callable giving the module's HostValues, asked only when an
    assignment needs it."""

    def __init__(self, classes: ClassModel, receivers: ReceiverModel, host_values: Callable):
        self.classes = classes
        self.receivers = receivers
        self._host_values = host_values
        self._held: dict = {}

    def held(self, cls: ClassInfo, attr: str, nnx: bool) -> Optional[Held]:
        """What ``instance.attr`` holds; None when the class does not show it."""
        key = (id(cls), attr, nnx)
        if key in self._held:
            return self._held[key]
        self._held[key] = None  # a cycle (``self.a = self.a``) is unknown
        found = self._find(cls, attr, nnx)
        self._held[key] = found
        return found

    def _find(self, cls: ClassInfo, attr: str, nnx: bool) -> Optional[Held]:
        if self.classes.member(cls, attr) is not None:
            return None  # a method or property: the interpreter follows it
        if self.classes.field_kind(cls, attr) == STATIC_FIELD:
            return (PYTHON, None)  # ``eqx.field(static=True)``, a ClassVar, a class attribute
        written = [self._written(value, scope, nnx) if value is not None else None for value, scope in self.receivers.attribute_values(cls, attr)]
        known = [w for w in written if w is not None]
        if known:
            if len(known) != len(written) or any(w != known[0] for w in known[1:]):
                return None  # assignments that disagree, or one that cannot be read
            return known[0]
        return self._declared(cls, attr, nnx)

    def _declared(self, cls: ClassInfo, attr: str, nnx: bool) -> Optional[Held]:
        """From the annotation in the class body (``w: jax.Array``, ``n: int``)."""
        c, decl = self.classes.field_declaration(cls, attr)
        if decl is None:
            return None
        ann = decl.annotation
        if is_array_annotation(ann, c.scope):
            return (ARRAY, None)
        if is_scalar_annotation(ann) or isinstance(ann.annotation, cst.Name) and ann.annotation.value == "str":
            return (PYTHON, None)
        inner = annotation_class(ann.annotation, c.scope)
        if inner is not None:
            return self._instance(inner, nnx)
        element = element_annotation(ann.annotation)
        inner = annotation_class(element, c.scope) if element is not None else None
        if inner is not None:
            return self._elements(inner, nnx)
        return (LAYER, None) if is_layer_class(resolve(ann.annotation, c.scope)) else None

    def _instance(self, cls: ClassInfo, nnx: bool) -> Optional[Held]:
        if nnx and self.classes.is_nnx_module(cls) or not nnx and self.classes.pytree_kind(cls) == "equinox":
            return (INSTANCE, cls)
        if nnx and self.classes.derives(cls, NNX_VARIABLE):
            return (VARIABLE, None)  # ``class Count(nnx.Variable)``
        return None

    def _elements(self, cls: ClassInfo, nnx: bool) -> Optional[Held]:
        held = self._instance(cls, nnx)
        return (INSTANCES, cls) if held is not None and held[0] == INSTANCE else None

    def _written(self, value, scope, nnx: bool) -> Optional[Held]:
        """What one assignment ``self.attr = value`` binds."""
        e = self.receivers.element_receiver_of(value, scope)
        if e is not None and e.cls is not None:
            return self._elements(e.cls, nnx)
        if isinstance(value, cst.Call):
            q = resolve(value.func, scope)
            if q is not None and nnx and q in NNX_VARIABLE:
                return (VARIABLE, None)
            if is_layer_class(q):
                return (LAYER, None)
        r = self.receivers.receiver_of(value, scope)
        if r is not None and r.cls is not None:
            return self._instance(r.cls, nnx)
        if r is not None and is_layer_class(r.external):
            return (LAYER, None)
        v = host_val(self._host_values().value(value, scope, value if isinstance(value, cst.Call) else None), traced=NNX_ARRAYS if nnx else FILTERED)
        if v is lattice.STATIC_VAL:
            return (PYTHON, None)
        return (ARRAY, None) if v.kind == lattice.TRACED and v.flags == lattice.ARRAY else None
