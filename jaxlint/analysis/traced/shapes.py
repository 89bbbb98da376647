"""The static metadata of traced arrays, where the code shows it: a shape is a Python tuple at
trace time, so ``jnp.zeros((n, 0))`` has 0 columns under every transform, and
``x.shape[1]``, ``x.ndim`` and ``len(x)`` are Python ints that decide branches and loop trip
counts as on concrete arrays.

An array value carries ``dims`` (a tuple, one entry per axis: the size as an int, or None
where the code does not show it) and a Python int carries ``const``; both are None where
unknown.  Kept apart from the evaluator (``expressions.py``) because it is one question, what
size an axis has, with its own arithmetic of indexing.
"""

from __future__ import annotations

from typing import Optional, Sequence, Tuple

import libcst as cst

from jaxlint.analysis.jax.jax_signatures import shape_args
from jaxlint.analysis.traced.values import PYSEQ, SHAPE, STATIC, STATIC_VAL, Val, int_val

Dims = Tuple[Optional[int], ...]

# The functions and methods that return an array of their first input's shape.
SAME_SHAPE = frozenset({"zeros_like", "ones_like", "empty_like", "full_like", "asarray", "array", "astype", "copy", "block_until_ready"})


def known_int(v: Val) -> Optional[int]:
    c = v.const
    return c if isinstance(c, int) and not isinstance(c, bool) else None


def dims_of_shape(v: Val) -> Optional[Dims]:
    """The dims a shape argument gives (``(n, 0)``, ``3``), None where it is not shown."""
    n = known_int(v)
    if n is not None:
        return (n,) if n >= 0 else (None,)
    if v.kind != STATIC or v.items is None or v.keys is not None:
        return None
    # a negative size is reshape's "whatever is left": not shown
    return tuple(d if d is not None and d >= 0 else None for d in map(known_int, v.items))


def shape_val(dims: Dims) -> Val:
    """``x.shape``: a tuple of Python ints, those the code shows known."""
    return Val(STATIC, None, SHAPE | PYSEQ, tuple(int_val(d) if d is not None else STATIC_VAL for d in dims))


def size_of(dims: Dims) -> Optional[int]:
    size = 1
    for d in dims:
        if d is None:
            return None if 0 not in dims else 0
        size *= d
    return size


def indexed_dims(dims: Dims, elements: Sequence[cst.SubscriptElement], idx: Sequence[Val]) -> Optional[Dims]:
    """The dims of ``x[elements]`` by NumPy's basic indexing: ``:`` keeps an axis, ``None``
    adds one of size 1, a Python int drops one, another slice keeps it with a size not shown;
    None for anything else (an array index, an ellipsis, more indices than axes)."""
    out = []
    axis = 0
    for el, v in zip(elements, idx):
        s = el.slice
        if isinstance(s, cst.Index) and isinstance(s.value, cst.Name) and s.value.value == "None":
            out.append(1)
            continue
        if axis >= len(dims):
            return None
        if isinstance(s, cst.Slice):
            whole = s.lower is None and s.upper is None and s.step is None
            out.append(dims[axis] if whole else None)
        elif known_int(v) is not None:
            pass  # an integer index drops the axis
        else:
            return None
        axis += 1
    return tuple(out) + tuple(dims[axis:])


def compared(a: Val, b: Val, op) -> Optional[bool]:
    """``a <op> b`` for two Python ints the code shows, else None."""
    x, y = known_int(a), known_int(b)
    if x is None or y is None:
        return None
    table = {
        cst.Equal: x == y,
        cst.NotEqual: x != y,
        cst.LessThan: x < y,
        cst.LessThanEqual: x <= y,
        cst.GreaterThan: x > y,
        cst.GreaterThanEqual: x >= y,
    }
    return table.get(type(op))


def known_len(v: Val) -> Optional[int]:
    """``len(v)``: of an array, its first axis; of a Python tuple or list shown element by
    element, its length."""
    if v.dims is not None:
        return v.dims[0] if v.dims else None
    if v.items is not None and v.keys is None and v.flags & PYSEQ:
        return len(v.items)
    return None


def result_dims(q: str, argvals) -> Optional[Dims]:
    """The dims of what the ``jax.numpy`` function ``q`` returns: the shape it is given where
    its one shape-setting argument is ``shape`` (``zeros((n, 0))``, ``broadcast_to(x, s)``,
    ``zeros_like(x, shape=s)``: read from JAX's signatures), else the shape of its input
    (``zeros_like(x)``, ``asarray(x)``)."""
    positional = [v for a, v in argvals if a.keyword is None and not a.star]
    keywords = {a.keyword.value: v for a, v in argvals if a.keyword is not None}
    spec = shape_args(q)
    if len(spec) == 1 and spec[0][1] == "shape":
        position = spec[0][0]
        shape = keywords.get("shape", positional[position] if position is not None and position < len(positional) else None)
        if shape is not None:
            return dims_of_shape(shape)
    if q.rsplit(".", 1)[-1] in SAME_SHAPE and positional and "shape" not in keywords:
        return positional[0].dims
    return None
