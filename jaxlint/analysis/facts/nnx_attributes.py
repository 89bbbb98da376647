"""Attributes of Flax NNX modules that are static, and the data assigned to them.

An ``nnx.Module`` (any ``nnx.Pytree``) sorts its attributes when they are set: a value that is
data (a JAX or NumPy array, an ``nnx.Variable`` such as ``nnx.Param``, another module, an
``nnx.Rngs``) becomes a pytree leaf; anything else, plain lists, dicts and tuples included, is
static.  Flax checks the static ones whoever sets them, a method of the class or code holding
an instance (verified with flax 0.12.8):

* a plain ``list`` / ``dict`` / ``tuple`` holding data raises ``ValueError: Found data on value
  of type '<class 'list'>' assigned to static attribute``, wherever it is assigned;
* an attribute first set to a static value (``self.bias = None``) refuses data later
  (``ValueError: Cannot assign data value ... to static attribute``);
* a value marked static, ``self.a = nnx.static(value)``, or assigned to an attribute the class
  declares static (``a: jax.Array = nnx.static()``, ``a: nnx.Static[...]``; the constructor of
  an ``nnx.dataclass`` assigns its arguments) is checked when it is set, whatever its type: an
  array there, a 0-d one too, raises ``ValueError: Found data in value ... annotated with
  nnx.static(...)`` / ``Found unexpected data ... in static attribute``.

What is not static: ``nnx.List(...)`` / ``nnx.Dict(...)`` (modules themselves), a value wrapped
with ``nnx.data(...)``, an attribute declared at class level (``layers: list = nnx.data()``,
``nnx.Data[...]``), a class built with ``pytree=False`` or derived from ``nnx.Object``.  A list
of ints or strings is static and fine.  Only classes jaxlint can resolve to ``nnx.Module`` or
``nnx.Pytree`` count, without other class keywords (``experimental_pytree=True`` belongs to
older Flax releases, which sorted attributes differently), and only values the code shows to
be data.
"""

from __future__ import annotations

from typing import Iterator, List, NamedTuple, Optional

import libcst as cst

from jaxlint.analysis.facts.static_metadata import argument_for
from jaxlint.analysis.model.classes import ClassModel, class_named, decorator_names, is_classmethod, qualified
from jaxlint.analysis.host.host_value import INSTANCE, JAX_ARRAY, NUMPY_ARRAY
from jaxlint.analysis.host.host_values import HostValues
from jaxlint.analysis.jax.jax_api import NNX_DATA_CLASSES
from jaxlint.analysis.model.nnx_state import _unconditional
from jaxlint.analysis.syntax.module_index import AttributeWrite, ModuleIndex
from jaxlint.analysis.syntax.nodes import NOT_LITERAL, literal_value, simple_statements
from jaxlint.analysis.syntax.scopes import ClassInfo, FuncInfo, Scope
from jaxlint.analysis.model.names import resolve

NNX_PYTREES = frozenset({"flax.nnx.Module", "flax.nnx.module.Module", "flax.nnx.Pytree", "flax.nnx.pytreelib.Pytree"})
NNX_OBJECTS = frozenset({"flax.nnx.Object", "flax.nnx.pytreelib.Object"})
NNX_PREFIXES = ("flax.nnx.", "flax.experimental.nnx.")
# ``nnx.static(value)`` marks a value static, ``nnx.static()`` / ``nnx.Static[T]`` declare a field so
NNX_STATIC_MARKERS = frozenset({"static", "Static", "pytreelib.static", "pytreelib.Static"})
NNX_DATA_MARKERS = frozenset({"data", "Data", "pytreelib.data", "pytreelib.Data"})
# decorators that generate a constructor assigning each field (``nnx.dataclass`` is one)
GENERATED_INIT = frozenset({"dataclasses.dataclass"} | {p + d for p in NNX_PREFIXES for d in ("dataclass", "pytreelib.dataclass")})
CONTAINER_WORDS = {cst.List: "a list", cst.Tuple: "a tuple", cst.Dict: "a dict", cst.ListComp: "a list", cst.DictComp: "a dict"}
BUILTIN_CONTAINERS = {"list": "a list", "tuple": "a tuple", "dict": "a dict"}
GROWERS = frozenset({"append", "extend", "insert"})
_MAX_DEPTH = 3


class StaticDataWrite(NamedTuple):
    node: cst.CSTNode  # the assigned value
    attr: str
    cls: ClassInfo
    what: str  # "a list holding nnx.Linear modules"
    first: Optional[cst.CSTNode]  # the earlier static assignment, for the second form
    # what made the attribute static where no earlier assignment did: the ``nnx.static(...)``
    # the value is wrapped in, or the class-body declaration
    marked: Optional[cst.CSTNode] = None
    owner: str = "self"  # the object written to: ``self``, or an instance outside its class


class NnxAttributes:
    def __init__(self, index: ModuleIndex, classes: ClassModel, hv: HostValues):
        self.index = index
        self.classes = classes
        self.hv = hv
        self._pytree: dict = {}

    # -- which classes sort their attributes ---------------------------------------------
    def is_nnx_pytree(self, cls: ClassInfo) -> bool:
        """Derives from ``nnx.Module`` / ``nnx.Pytree`` through classes jaxlint resolves, and
        neither it nor a base says ``pytree=False`` or derives from ``nnx.Object`` (whose own
        keyword decides: a subclass of a ``pytree=False`` class is a pytree again, so only the
        class's own keyword and the bases it names count)."""
        key = id(cls)
        if key not in self._pytree:
            self._pytree[key] = self._derives_pytree(cls)
        return self._pytree[key]

    def _derives_pytree(self, cls: ClassInfo) -> bool:
        for kw in cls.node.keywords:
            if kw.keyword is not None and kw.keyword.value == "pytree" and not (isinstance(kw.value, cst.Name) and kw.value.value == "True"):
                return False
        found = False
        for c in self.classes.mro(cls):
            for kw in c.node.keywords:
                if kw.keyword is None or kw.keyword.value != "pytree":
                    # another class keyword (``experimental_pytree=True`` of older Flax
                    # releases, a metaclass): attributes may be sorted by other rules
                    return False
            for b in c.bases:
                q = qualified(b, c.scope)
                if q in NNX_OBJECTS:
                    return False
                if q in NNX_PYTREES:
                    found = True
        if not found:
            return False
        # Every base must be a class of the module or nnx itself: an unresolved base may
        # change how attributes are set.
        for c in self.classes.mro(cls):
            for b in c.bases:
                if not isinstance(b, cst.Name) and qualified(b, c.scope) not in NNX_PYTREES:
                    return False
                if isinstance(b, cst.Name) and class_named(c.scope, b.value) is None and qualified(b, c.scope) not in NNX_PYTREES:
                    return False
        return True

    def _declaration(self, cls: ClassInfo, attr: str):
        """(statement, class) of the class-body declaration of ``attr``, the nearest class
        first: ``layers: list = nnx.data()``, ``a: nnx.Static[int]``, ``count = 0``; None."""
        for c in self.classes.mro(cls):
            for small in simple_statements(c.node.body):
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.target.value == attr:
                    return small, c
                if isinstance(small, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == attr for t in small.targets):
                    return small, c
        return None

    def _declared(self, cls: ClassInfo, attr: str) -> bool:
        """The class (or a base) declares the attribute in its body: ``layers: list =
        nnx.data()``, ``layers: nnx.Data[list]``; its status is then what the declaration says.
        A bare annotation (``data: nnx.Variable``) declares nothing: NNX sorts the value."""
        found = self._declaration(cls, attr)
        if found is None:
            return False
        return found[0].value is not None or self._declared_as(cls, attr, NNX_STATIC_MARKERS | NNX_DATA_MARKERS) is not None

    def _declared_as(self, cls: ClassInfo, attr: str, markers) -> Optional[cst.CSTNode]:
        """The declaration of ``attr`` when it marks the attribute with one of ``markers``, by
        its annotation (``nnx.Static[int]``) or its value (``= nnx.static()``)."""
        found = self._declaration(cls, attr)
        if found is None:
            return None
        small, c = found
        ann = small.annotation.annotation if isinstance(small, cst.AnnAssign) else None
        head = ann.value if isinstance(ann, cst.Subscript) else ann
        if head is not None and _marker(head, c.scope, markers):
            return small
        return small if isinstance(small.value, cst.Call) and _marker(small.value.func, c.scope, markers) else None

    def static_declaration(self, cls: ClassInfo, attr: str) -> Optional[cst.CSTNode]:
        """The class-body declaration that makes ``attr`` static (``a: jax.Array =
        nnx.static()``, ``a: nnx.Static[int]``); None otherwise."""
        return self._declared_as(cls, attr, NNX_STATIC_MARKERS)

    # -- what is data ----------------------------------------------------------------------
    def data(self, e, scope: Scope, depth: int = 0) -> Optional[str]:
        """What makes ``e`` data for NNX ("an nnx.Linear module", "a JAX array"); None when it
        is not data or not known to be."""
        if depth > _MAX_DEPTH:
            return None
        if isinstance(e, cst.Call):
            if isinstance(e.func, cst.Name):
                cls = class_named(scope, e.func.value)
                if cls is not None:
                    return f"a `{cls.name}` module" if self.is_nnx_pytree(cls) else None
            q = resolve(e.func, scope)
            if q is not None:
                for prefix in NNX_PREFIXES:
                    if q.startswith(prefix) and q[len(prefix):] in NNX_DATA_CLASSES:
                        return f"an nnx.{q[len(prefix):]}"
        elif isinstance(e, cst.Name):
            b = self._single_assignment(e.value, scope)
            return self.data(b, scope, depth + 1) if b is not None else None
        # an array, however it is made (a call, a slice of one, arithmetic on one)
        v = self.hv.eval(e, scope, {}, frozenset())
        return "a " + v.kind if v is not None and v.kind in (JAX_ARRAY, NUMPY_ARRAY) else None

    def _single_assignment(self, name: str, scope: Scope):
        found = scope.sole_binding(name, mutable=True)
        return found[0] if found is not None and found[1] is scope else None

    def container_data(self, e, scope: Scope, depth: int = 0) -> Optional[str]:
        """``e`` is a plain list, dict or tuple holding data: "a list holding an nnx.Linear"."""
        if depth > _MAX_DEPTH:
            return None
        word = CONTAINER_WORDS.get(type(e))
        if word is not None:
            inner = self._elements_data(e, scope, depth)
            return f"{word} holding {inner}" if inner is not None else None
        if isinstance(e, cst.Call) and isinstance(e.func, cst.Name) and e.func.value in BUILTIN_CONTAINERS:
            if scope.lookup_scope(e.func.value) is not None:
                return None  # a local function shadows the builtin
            word = BUILTIN_CONTAINERS[e.func.value]
            for a in e.args:
                if a.star:
                    return None
                v = a.value
                inner = (
                    self.data(v.elt, scope, depth + 1)
                    if isinstance(v, cst.GeneratorExp)
                    else self.data(v, scope, depth + 1) if a.keyword is not None
                    else self._elements_of(v, scope, depth)
                )
                if inner is not None:
                    return f"{word} holding {inner}"
            return None
        if isinstance(e, cst.Name):
            return self._grown_list(e.value, scope, depth)
        return None

    def _elements_of(self, e, scope: Scope, depth: int) -> Optional[str]:
        found = self.container_data(e, scope, depth + 1)
        return found.split(" holding ", 1)[1] if found is not None else None

    def _elements_data(self, e, scope: Scope, depth: int) -> Optional[str]:
        if isinstance(e, (cst.List, cst.Tuple)):
            items = [el.value for el in e.elements if not isinstance(el, cst.StarredElement)]
        elif isinstance(e, cst.Dict):
            items = [el.value for el in e.elements if isinstance(el, cst.DictElement)]
        elif isinstance(e, cst.ListComp):
            items = [e.elt]
        elif isinstance(e, cst.DictComp):
            items = [e.value]
        else:
            return None
        for it in items:
            found = self.data(it, scope, depth + 1) or self._elements_of(it, scope, depth)
            if found is not None:
                return found
        return None

    def _grown_list(self, name: str, scope: Scope, depth: int) -> Optional[str]:
        """``layers = []`` then ``layers.append(nnx.Linear(...))`` in the same function."""
        value = self._single_assignment(name, scope)
        if not isinstance(value, cst.List) or value.elements:
            return self.container_data(value, scope, depth + 1) if value is not None else None
        for call, s, _o in self._calls_in(scope):
            f = call.func
            if (
                isinstance(f, cst.Attribute)
                and f.attr.value in GROWERS
                and isinstance(f.value, cst.Name)
                and f.value.value == name
                and call.args
            ):
                arg = call.args[-1].value
                found = self.data(arg, s, depth + 1) if f.attr.value != "extend" else self._elements_of(arg, s, depth)
                if found is not None:
                    return f"a list holding {found}"
        return None

    def _calls_in(self, scope: Scope):
        by = getattr(self, "_by_scope", None)
        if by is None:
            by = self._by_scope = {}
            for c, s, o in self.index.calls:
                by.setdefault(id(s), []).append((c, s, o))
        return by.get(id(scope), ())

    # -- the writes -----------------------------------------------------------------------
    def _self_writes(self, in_place: bool = False, declared: bool = False) -> Iterator[tuple]:
        """(write, method or None, class) for each attribute write that lands on an instance
        of an NNX pytree class, whose ``__setattr__`` sorts it (unless the class overrides it):
        ``self.attr = value`` in a method of the class, and ``obj.attr = value`` on an
        instance the code shows; ``in_place``: also the changes of ``self.attr`` in place;
        ``declared``: also the attributes the class body declares."""
        for w in self.index.attribute_writes:
            if not in_place and (w.in_place or w.value is None):
                continue
            if w.in_place and not _direct(w):
                continue
            f = w.method
            if f is None:
                if w.in_place or not isinstance(w.node, cst.Attribute):
                    continue
                cls = self._instance_class(w)
            elif f.is_lambda or is_classmethod(f):
                continue
            else:
                cls = f.cls
            if cls is None or not self.is_nnx_pytree(cls) or not declared and self._declared(cls, w.attr):
                continue
            if any("__setattr__" in c.body_scope.defs for c in self.classes.mro(cls)):
                continue  # the class's own __setattr__ decides what is stored
            yield w, f, cls

    def _instance_class(self, w: AttributeWrite) -> Optional[ClassInfo]:
        """The class of ``obj`` in ``obj.attr = value`` outside the class's methods: every
        binding of ``obj`` in the write's scope that can reach the write builds an instance
        of that one class."""
        found = set()
        for b in w.scope.bindings.get(w.name, ()):
            if b.order is not None and not w.scope.can_follow(b.order, w.order):
                continue
            v = self.hv.eval(b.value, w.scope, {}, frozenset()) if b.order is not None and b.value is not None and b.unpacked is None else None
            if v is None or v.kind != INSTANCE or v.cls is None:
                return None
            found.add(v.cls)
        return found.pop() if len(found) == 1 else None

    def static_data_writes(self) -> List[StaticDataWrite]:
        out: List[StaticDataWrite] = self._marked_static_data()
        writes = [(w, f, cls) for w, f, cls in self._self_writes(declared=True) if not self._declared(cls, w.attr)]
        if not writes:
            return out
        firsts = {}
        for w, f, cls in writes:
            if f is not None and f.name == "__init__" and literal_value(w.value) is not NOT_LITERAL and _top_level(w, f):
                firsts.setdefault((id(cls), w.attr), w)
        for w, f, cls in writes:
            what = self.container_data(w.value, w.scope)
            if what is not None:
                out.append(StaticDataWrite(w.value, w.attr, cls, what, None, owner=w.name))
                continue
            # a write on an instance from outside comes after the constructor of its class
            first = next((firsts[k] for c in self.classes.mro(cls) if (k := (id(c), w.attr)) in firsts), None)
            if first is None or first is w or f is not None and f.name == "__init__" and w.order < first.order:
                continue
            what = self.data(w.value, w.scope)
            if what is not None:
                out.append(StaticDataWrite(w.value, w.attr, cls, what, first.value, owner=w.name))
        return out


    def _marked_static_data(self) -> List[StaticDataWrite]:
        """Data set where the code marks the value static: ``self.a = nnx.static(v)`` (refused
        as it is set); and an argument that the constructor of a dataclass without its own
        ``__init__`` assigns to a field the class declares static, or a plain container holding
        data that it assigns to a field not declared as data (refused at the call).  (A write of data to a declared static attribute inside a hand-written
        ``__init__`` fails where the constructor returns, as an addition does: not here.)"""
        out: List[StaticDataWrite] = []
        for w, _f, cls in self._self_writes(declared=True):
            value = w.value
            if not (isinstance(value, cst.Call) and _marker(value.func, w.scope, NNX_STATIC_MARKERS)):
                continue
            if len(value.args) != 1 or value.args[0].keyword is not None or value.args[0].star:
                continue
            what = self.container_data(value.args[0].value, w.scope) or self.data(value.args[0].value, w.scope)
            if what is not None:
                out.append(StaticDataWrite(value.args[0].value, w.attr, cls, what, None, value))
        for call, scope, _order in self.index.calls:
            cls = class_named(scope, call.func.value) if isinstance(call.func, cst.Name) else None
            if cls is None or not self.is_nnx_pytree(cls) or self.classes.has_own_init(cls):
                continue
            if not any(decorator_names(c.node, c.scope) & GENERATED_INIT for c in self.classes.mro(cls)):
                continue  # no generated constructor that assigns the fields
            for field in self.classes.field_names(cls):
                # the generated constructor sets each field as ``self.field = arg`` does:
                # a field declared static refuses any data, one declared as data takes
                # anything, and any other field is sorted by its value (a plain list
                # holding modules is static, and refused)
                decl = self.static_declaration(cls, field)
                if decl is None and self._declared_as(cls, field, NNX_DATA_MARKERS) is not None:
                    continue
                arg = argument_for(self.classes, cls, call, field)
                if arg is None:
                    continue
                what = self.container_data(arg, scope) or (self.data(arg, scope) if decl is not None else None)
                if what:
                    out.append(StaticDataWrite(arg, field, cls, what, None, decl))
        return out

    def static_data_additions(self) -> List[StaticDataWrite]:
        """``self.layers = []`` then ``self.layers.append(nnx.Linear(...))`` (or ``extend``,
        ``insert``, ``self.heads[k] = ...``) in ``__init__``: the container stays a static
        attribute, and Flax checks the static attributes when the constructor returns
        (``ValueError: Found unexpected data ... in static attribute``)."""
        out: List[StaticDataWrite] = []
        by_attr: dict = {}
        for w, f, cls in self._self_writes(in_place=True):
            if f is not None and f.name == "__init__":
                by_attr.setdefault((id(f.node), w.attr), []).append((w, f, cls))
        for ws in by_attr.values():
            rebinds = [w for w, _f, _c in ws if not w.in_place]
            if not rebinds or not all(self.hv.is_container(w.value, w.scope) and self.container_data(w.value, w.scope) is None for w in rebinds):
                continue
            first = min(w.order for w in rebinds)
            for w, _f, cls in sorted(ws, key=lambda t: t[0].order):
                if not w.in_place or w.order < first:
                    continue
                what = self._added_data(w)
                if what is not None:
                    # one finding per attribute: the constructor fails once, however many adds
                    out.append(StaticDataWrite(w.node, w.attr, cls, what, None))
                    break
        return out

    def _added_data(self, w: AttributeWrite) -> Optional[str]:
        node = w.node
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Attribute):
            m = node.func.attr.value
            if m not in GROWERS or not node.args or node.args[-1].star:
                return None
            arg = node.args[-1].value
            return self._elements_of(arg, w.scope, 0) if m == "extend" else self.data(arg, w.scope)
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Attribute) and w.value is not None:
            return self.data(w.value, w.scope)
        return None


def _marker(e, scope: Scope, names) -> bool:
    """``e`` names one of NNX's markers ``names`` (``nnx.static``, ``nnx.Data``...)."""
    q = resolve(e, scope) or ""
    return any(q.startswith(prefix) and q[len(prefix):] in names for prefix in NNX_PREFIXES)


def _direct(w: AttributeWrite) -> bool:
    """The change is made on ``self.attr`` itself (``self.attr.append(v)``, ``self.attr[k] =
    v``), not deeper (``self.attr.sub.append(v)``)."""
    node = w.node
    if isinstance(node, cst.Call):
        return isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Attribute) and isinstance(node.func.value.value, cst.Name)
    return isinstance(node, cst.Subscript) and isinstance(node.value, cst.Attribute) and isinstance(node.value.value, cst.Name)


def _top_level(w: AttributeWrite, f: FuncInfo) -> bool:
    """The write is an assignment that runs on every call of the function."""
    return any(isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is w.value for st in _unconditional(f.node.body.body) for small in st.body)
