"""What a parameter's annotation, name and uses say about the value it receives."""

from __future__ import annotations

from typing import Dict

import libcst as cst

from jaxlint.analysis.syntax.fast_walk import FastVisitor
from jaxlint.analysis.syntax.nodes import dotted_name
from jaxlint.analysis.syntax.scopes import Scope
from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.traced.values import DICT, PYSEQ


_CONTAINER_ANNOTATIONS = {
    "Dict": DICT,
    "dict": DICT,
    "Mapping": DICT,
    "MutableMapping": DICT,
    "List": PYSEQ,
    "list": PYSEQ,
    "Sequence": PYSEQ,
    "Tuple": PYSEQ,
    "tuple": PYSEQ,
    "Iterable": PYSEQ,
}

def annotation_container(ann) -> int:
    """DICT / PYSEQ when a parameter's annotation says it is a Python container (possibly
    Optional): its truthiness is an emptiness check, not a tracer's."""
    if ann is None:
        return 0
    e = ann.annotation if isinstance(ann, cst.Annotation) else ann
    if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, cst.BitOr):
        return annotation_container(e.left) or annotation_container(e.right)
    if isinstance(e, cst.Subscript):
        head = (dotted_name(e.value) or "").rsplit(".", 1)[-1]
        if head in ("Optional", "Union"):
            for el in e.slice:
                if isinstance(el.slice, cst.Index):
                    f = annotation_container(el.slice.value)
                    if f:
                        return f
            return 0
        e = e.value
    head = (dotted_name(e) or "").rsplit(".", 1)[-1]
    return _CONTAINER_ANNOTATIONS.get(head, 0)

def not_none_annotation(ann):
    """The one type an annotation names beside ``None`` (``X``, ``X | None``, ``Optional[X]``,
    ``Union[X, None]``), as an expression; None for no annotation or several types."""
    if ann is None:
        return None
    e = ann.annotation if isinstance(ann, cst.Annotation) else ann
    if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, cst.BitOr):
        sides = [x for x in (e.left, e.right) if not (isinstance(x, cst.Name) and x.value == "None")]
        return not_none_annotation(sides[0]) if len(sides) == 1 else None
    if isinstance(e, cst.Subscript) and (dotted_name(e.value) or "").rsplit(".", 1)[-1] in ("Optional", "Union"):
        types = [el.slice.value for el in e.slice if isinstance(el.slice, cst.Index)]
        types = [x for x in types if not (isinstance(x, cst.Name) and x.value == "None")]
        return not_none_annotation(types[0]) if len(types) == 1 else None
    return e


_MAYBE_NONE_HEADS = frozenset({"Optional", "Union", "Any", "object", "None", "NoneType"})


def is_not_none_annotation(ann) -> bool:
    """True when an annotation names a type that excludes None (``NeighborList``,
    ``Tuple[int, int]``); False for ``Optional[...]``, ``X | None``, ``Any``, strings."""
    if ann is None:
        return False
    e = ann.annotation if isinstance(ann, cst.Annotation) else ann
    if isinstance(e, cst.Subscript):
        e = e.value
    if not isinstance(e, (cst.Name, cst.Attribute)):
        return False
    head = (dotted_name(e) or "").rsplit(".", 1)[-1]
    return bool(head) and head not in _MAYBE_NONE_HEADS


def is_ref_name(name: str) -> bool:
    return name.endswith(("_ref", "_refs")) or name in ("ref", "refs")

_SCALAR_TYPES = frozenset({"bool", "int", "float", "complex"})

def is_scalar_annotation(ann) -> bool:
    if ann is None:
        return False
    e = ann.annotation if isinstance(ann, cst.Annotation) else ann
    return isinstance(e, cst.Name) and e.value in _SCALAR_TYPES

_CONTAINER_DISPLAYS = (cst.Dict, cst.List, cst.Tuple, cst.Set, cst.DictComp, cst.ListComp, cst.SetComp)


class _ContainerUses(FastVisitor):
    def __init__(self):
        self.names: set = set()

    def _add(self, e) -> None:
        if isinstance(e, cst.Name):
            self.names.add(e.value)

    def found(self) -> frozenset:
        return frozenset(self.names)

    def _value(self, node) -> None:
        self._add(node.value)

    def _iterated(self, node) -> None:
        self._add(node.iter)

    visit_Subscript = visit_StarredElement = _value
    visit_For = visit_CompFor = _iterated

    def visit_Arg(self, node) -> None:
        if node.star:
            self._add(node.value)

    def visit_Assign(self, node) -> None:
        if any(isinstance(t.target, (cst.Tuple, cst.List)) for t in node.targets):
            self._add(node.value)

    def visit_BooleanOperation(self, node) -> None:
        # ``gaps or {}``: a value whose stand-in is a container is one (or None)
        if isinstance(node.right, _CONTAINER_DISPLAYS):
            self._add(node.left)

    def visit_Comparison(self, node) -> None:
        if any(isinstance(c.operator, (cst.Is, cst.IsNot)) for c in node.comparisons):
            self._add(node.left)
            for c in node.comparisons:
                self._add(c.comparator)

    def visit_Call(self, node) -> None:
        f = node.func
        if isinstance(f, cst.Name) and f.value in ("len", "isinstance", "list", "tuple", "dict", "iter", "zip", "enumerate"):
            if node.args:
                self._add(node.args[0].value)
        elif isinstance(f, cst.Attribute) and f.attr.value in ("array", "asarray", "tree_map", "map", "tree_leaves", "leaves"):
            for a in node.args:
                self._add(a.value)

class _StructureUses(_ContainerUses):
    """The uses that show a Python container (unpacked, spread with ``*``, a container as its
    stand-in, its dict views, indexed by its own keys: ``for k in d: d[k]``): not an index,
    a length or a loop over it, which arrays have too, nor a type or None test, which any value
    takes."""

    def __init__(self):
        super().__init__()
        self.iterated: set = set()  # (value, loop variable)
        self.indexed: set = set()  # (value, index variable)

    def _iterated(self, node) -> None:
        if isinstance(node.iter, cst.Name) and isinstance(node.target, cst.Name):
            self.iterated.add((node.iter.value, node.target.value))

    visit_For = visit_CompFor = _iterated

    def visit_Subscript(self, node) -> None:
        if isinstance(node.value, cst.Name) and len(node.slice) == 1:
            index = node.slice[0].slice
            if isinstance(index, cst.Index) and isinstance(index.value, cst.Name):
                self.indexed.add((node.value.value, index.value.value))

    def visit_Comparison(self, node) -> None:
        pass

    def found(self) -> frozenset:
        return frozenset(self.names | {d for d, _k in self.iterated & self.indexed})

    def visit_Call(self, node) -> None:
        f = node.func
        if isinstance(f, cst.Attribute) and f.attr.value in ("items", "keys", "values") and not node.args:
            self._add(f.value)


def structure_uses(node, cache: Dict[int, frozenset]) -> frozenset:
    """Names a function uses as Python containers (``_StructureUses``)."""
    return _names_used(node, cache, _StructureUses)


def container_uses(node, cache: Dict[int, frozenset]) -> frozenset:
    """Names a function uses as containers (indexed, iterated, unpacked, compared with None)."""
    return _names_used(node, cache, _ContainerUses)


def _names_used(node, cache: Dict[int, frozenset], visitor) -> frozenset:
    key = id(node)
    r = cache.get(key)
    if r is None:
        v = visitor()
        v.walk(node)
        r = cache[key] = v.found()
    return r

def is_array_annotation(ann, scope: Scope) -> bool:
    """``jax.Array``, ``jnp.ndarray``, ``np.ndarray``, ``chex.Array``, jaxtyping ``Float[Array, "n"]``."""
    if ann is None:
        return False
    e = ann.annotation if isinstance(ann, cst.Annotation) else ann
    if isinstance(e, cst.Subscript):
        q = resolve(e.value, scope) or dotted_name(e.value) or ""
        if q.split(".")[-1] in (
            "Float",
            "Int",
            "Bool",
            "Shaped",
            "Num",
            "Real",
            "Inexact",
            "Integer",
            "UInt",
            "Complex",
        ):
            return True
        return False
    q = resolve(e, scope)
    if q is None:
        n = dotted_name(e)
        return n in ("Array", "jax.Array", "jnp.ndarray", "np.ndarray", "chex.Array")
    return q in (
        "jax.Array",
        "jax.numpy.ndarray",
        "numpy.ndarray",
        "chex.Array",
        "jaxtyping.Array",
        "jax.typing.Array",
        "jax.core.Tracer",
    ) or q.endswith(".Array") and q.startswith(("jax", "chex", "jaxtyping"))
