"""What ``self.name`` and ``obj.name`` reach among the classes of a module: the class a
method's ``self`` is, a member no subclass defines again, an attribute no code outside its
class writes, the field a constructor call gives."""

from __future__ import annotations

from typing import Dict, Optional, Tuple

import libcst as cst

from jaxlint.analysis.model.callee_values import Instance
from jaxlint.analysis.model.classes import ClassModel, is_classmethod
from jaxlint.analysis.syntax.module_index import ModuleIndex
from jaxlint.analysis.syntax.scopes import ClassInfo, FuncInfo, Scope


class ClassMembers:
    """Members and attributes of the classes of one module, with the overrides and outside
    writes that make an answer unknown."""

    def __init__(self, index: ModuleIndex, classes: ClassModel):
        self.index = index
        self.classes = classes
        self._outside_writes: Optional[set] = None
        self._overridden: Dict[Tuple[int, str], bool] = {}

    def self_class(self, base, scope: Scope):
        """(class, False) when ``base`` is the ``self`` of a method (the class or a subclass),
        else (None, True)."""
        if type(base) is cst.Name:
            owner = scope.lookup_scope(base.value)
            f = owner.func if owner is not None and owner.kind == "function" else None
            if (
                f is not None
                and f.receiver == base.value
                and owner.unrebound_param(base.value)
                and not is_classmethod(f)
            ):
                return f.cls, False
        return None, True

    def constructor_field(self, inst: Instance, attr: str):
        """The expression a NamedTuple or dataclass constructor call gives field ``attr``."""
        given = self.classes.constructor_arguments(inst.cls, inst.built.args)
        return given.get(attr) if given is not None else None

    def attribute_kept(self, cls: ClassInfo, attr: str) -> bool:
        """``self.attr`` holds only what the methods of ``cls`` set it to: no other code writes
        it and no subclass sets it again."""
        return attr not in self.outside_writes() and not self.overridden(cls, attr)

    def outside_writes(self) -> set:
        """Attribute names written from code that is not a method of the object's class
        (``runner._step = other``): such an attribute is not read from ``__init__`` alone."""
        if self._outside_writes is None:
            out = set()
            for w in self.index.attribute_writes:
                if w.method is None:
                    out.add(w.attr)
            self._outside_writes = out
        return self._outside_writes

    def method(self, cls: ClassInfo, name: str, exact: bool) -> Optional[FuncInfo]:
        m = self.classes.member(cls, name)
        if m is None or (not exact and self.overridden(cls, name)):
            return None
        return m

    def overridden(self, cls: ClassInfo, name: str) -> bool:
        """A subclass of the module binds ``name`` again, by ``def`` or assignment (``self.name``
        may reach it)."""
        key = (id(cls), name)
        known = self._overridden.get(key)
        if known is None:
            known = any(
                c is not cls and cls in self.classes.mro(c) and name in c.body_scope.bindings for c in self.index.classes
            )
            self._overridden[key] = known
        return known


def is_super_call(expr, scope: Scope) -> bool:
    """``super()`` (or ``super(Cls, self)``) in a method, the builtin not shadowed."""
    return (
        isinstance(expr, cst.Call)
        and isinstance(expr.func, cst.Name)
        and expr.func.value == "super"
        and scope.lookup_scope("super") is None
        and scope.enclosing_class() is not None
    )


def has_class_decorator(cls: ClassInfo) -> bool:
    """A class decorator (``@dataclass``, ``@struct.dataclass``) may write ``__init__``."""
    return bool(cls.node.decorators)
