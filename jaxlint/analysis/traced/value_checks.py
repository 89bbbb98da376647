"""Questions rules ask about an abstract value from the interpreter: is it surely a tracer, would
JAX have to compute its truth value, and what to call it in a message."""

from __future__ import annotations

import re

import libcst as cst

from jaxlint.analysis.syntax.nodes import string_value
from jaxlint.analysis.traced.values import ARRAY, DICT, JAXARR, OPAQUE, PYSEQ, RAW, REF, STATIC, TRACED


def plain_traced(v) -> bool:
    """A traced value whose truthiness JAX would have to compute: not a Python container, and
    not a parameter that the function also treats as a container (it may be a tuple or None),
    and not an instance of a class (a pytree object: Python decides its truth value and
    conversions, through the class), of the module or one its annotation imports."""
    if v.kind != TRACED or v.flags & (PYSEQ | DICT | OPAQUE | REF) or v.cls is not None:
        return False
    if v.ext is not None and not v.flags & ARRAY:
        return False
    return not (v.flags & RAW and not v.flags & ARRAY)


def surely_traced(v) -> bool:
    """Surely holds a tracer: not a field or container that may be static metadata."""
    if v.items is not None:
        return any(surely_traced(i) for i in v.items)
    if v.kind != TRACED or v.flags & (OPAQUE | REF):
        return False
    return not (v.flags & RAW and not v.flags & ARRAY)


def tree_leaves(v):
    """The leaves of the pytree ``v`` as far as the interpreter knows them, or None: a Python
    value holds no tracer (one STATIC stands for all its leaves), a traced array is one leaf, a
    container shown element by element has its elements' leaves."""
    if v.kind == STATIC:
        return [v]
    if v.items is not None and not (v.keys is not None and v.elem is not None):
        parts = [tree_leaves(item) for item in v.items]
        return None if any(p is None for p in parts) else [leaf for p in parts for leaf in p]
    return [v] if plain_traced(v) else None


def staged_array(frame, v) -> bool:
    """A concrete JAX array (a global ``W = jnp.ones(3)``) in a frame that stages JAX operations:
    comparing it, or its elements, gives a tracer (``max(W)``, ``min(S, 1.0)``)."""
    return v.kind == STATIC and bool(v.flags & JAXARR) and frame.staged and not frame.concrete


def is_at_indexer(e) -> bool:
    """``x.at[i]``: its .min()/.max() are updates, not reductions over an axis."""
    return isinstance(e, cst.Subscript) and isinstance(e.value, cst.Attribute) and e.value.attr.value == "at"


def value_label(v, node):
    return v.name if v.name else node


_PERCENT_CONVERSION = re.compile(r"%(?:\([^)]*\))?[-+ 0#]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(.)", re.S)


def string_conversions_only(template) -> bool:
    """Every %-conversion of the literal ``template`` is ``%s``/``%r``/``%a`` (or ``%%``)."""
    text = string_value(template) if isinstance(template, cst.SimpleString) else None
    if text is None:
        return False
    kinds = [m.group(1) for m in _PERCENT_CONVERSION.finditer(text)]
    return bool(kinds) and all(k in "sra%" for k in kinds) and any(k != "%" for k in kinds)
