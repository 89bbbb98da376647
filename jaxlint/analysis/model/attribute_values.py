"""What an instance attribute read through ``self`` can hold: the values every assignment of an
attribute of that name in the module binds, when nothing else can set it."""

from __future__ import annotations

from typing import List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.model.classes import declared_annotation, is_classmethod


class AttributeValues:
    """``self.buf`` in a method of a class of the module: the expressions bound by every
    ``obj.buf = value`` of the module (``self.buf = jnp.zeros(n)`` in ``__init__``), when the
    class and its bases declare nothing of that name (a class attribute, a dataclass field, a
    property) and each assignment is a plain one with a value.  None when it cannot be known:
    ``obj.buf += 1`` or a base class outside the module."""

    def __init__(self, index, classes):
        self.classes = classes
        self.writes = {}
        for w in index.attribute_writes:
            if not w.in_place:
                self.writes.setdefault(w.attr, []).append(w)

    def values(self, target: cst.Attribute, scope) -> Optional[List[Tuple[cst.BaseExpression, object]]]:
        if not isinstance(target.value, cst.Name):
            return None
        f = scope.func if scope.kind == "function" else None
        me = target.value.value
        if f is None or f.receiver != me or is_classmethod(f) or scope.only_binding(me) is None:
            return None
        attr = target.attr.value
        mro = self.classes.mro(f.cls)
        if len(mro) - 1 < sum(1 for b in f.cls.bases if not (isinstance(b, cst.Name) and b.value == "object")):
            return None  # a base outside the module may define the attribute
        for c in mro:
            if attr in c.body_scope.bindings or attr in c.body_scope.defs or declared_annotation(c, attr) is not None:
                return None
        out, own = [], False
        for w in self.writes.get(attr, ()):
            if w.value is None:
                return None
            out.append((w.value, w.scope))
            if w.method is not None and w.method.cls in mro:
                own = True
        return out if own else None


def attribute_values(index, classes) -> AttributeValues:
    """The module's AttributeValues, built once per module index.  Kept on the index itself:
    a table keyed by the index (even weakly) whose values reach the index back would keep
    every module's tree alive for the rest of the run."""
    found = index.__dict__.get("_attribute_values")
    if found is None:
        found = index._attribute_values = AttributeValues(index, classes)
    return found

