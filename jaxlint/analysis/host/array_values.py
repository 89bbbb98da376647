"""Which calls and operations give a JAX array: the ``jax.numpy`` / ``jax.random`` functions
that return one array, the functional update ``x.at[i].set(v)``, the array methods and
attributes that give an array again, and the annotations that declare one; and which array
makers certainly build more than one element.  The host evaluator (``host_values``) reads
these tables; ``HostValues.is_array`` is the question rules ask.
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jaxlint.analysis.jax.jax_api import NUMPY_STATIC
from jaxlint.analysis.syntax.scopes import Scope
from jaxlint.analysis.model.names import resolve

# jax.numpy functions whose result is not one array: Python values (the shape and dtype
# readers), dtypes, tuples, lists.
NOT_ONE_ARRAY = NUMPY_STATIC | frozenset(
    {
        "isdtype",
        "broadcast_shapes",
        "get_printoptions",
        "printoptions",
        "ndarray",
        "nonzero",
        "split",
        "array_split",
        "hsplit",
        "vsplit",
        "dsplit",
        "unstack",
        "meshgrid",
        "broadcast_arrays",
        "atleast_1d",
        "atleast_2d",
        "atleast_3d",
        "unravel_index",
        "tril_indices",
        "triu_indices",
        "tril_indices_from",
        "triu_indices_from",
        "diag_indices",
        "diag_indices_from",
        "mask_indices",
        "indices",
        "ix_",
        "histogram",
        "histogram2d",
        "histogramdd",
        "unique",
        "unique_all",
        "unique_counts",
        "unique_inverse",
        "frexp",
        "modf",
        "divmod",
        "gradient",
        "polyfit",
        "vectorize",
        "frompyfunc",
        "piecewise",
        "select",
        "save",
        "load",
    }
)
NOT_ONE_ARRAY_RANDOM = frozenset({"key_impl", "default_prng_impl", "PRNGKeyImpl"})

# Array methods whose result is again an array.
ARRAY_METHODS = frozenset(
    {
        "astype",
        "reshape",
        "transpose",
        "ravel",
        "flatten",
        "squeeze",
        "swapaxes",
        "copy",
        "conj",
        "clip",
        "round",
        "sum",
        "mean",
        "prod",
        "max",
        "min",
        "cumsum",
        "cumprod",
        "dot",
    }
)
ARRAY_ATTRS = frozenset({"T", "mT", "real", "imag"})
AT_METHODS = frozenset({"set", "add", "multiply", "mul", "divide", "power", "min", "max", "apply", "get"})
ARRAY_TYPES = frozenset({"jax.Array", "jax.numpy.ndarray", "jaxtyping.Array"})


def functional_update(expr) -> Optional[cst.Call]:
    """``x.at[i].set(v)`` (any of the ``.at`` methods) -> the call; else None."""
    if not isinstance(expr, cst.Call) or not isinstance(expr.func, cst.Attribute):
        return None
    if expr.func.attr.value not in AT_METHODS:
        return None
    sub = expr.func.value
    if isinstance(sub, cst.Subscript) and isinstance(sub.value, cst.Attribute) and sub.value.attr.value == "at":
        return expr
    return None


def returns_one_array(q: str, call: cst.Call) -> bool:
    """A call of the ``jax.numpy`` / ``jax.random`` function ``q`` returns one array (not a
    Python value, a tuple or list of arrays, a class, or a function of a submodule)."""
    for prefix, excluded in (("jax.numpy.", NOT_ONE_ARRAY), ("jax.random.", NOT_ONE_ARRAY_RANDOM)):
        if q.startswith(prefix):
            name = q[len(prefix) :]
            if "." in name or name in excluded or prefix == "jax.numpy." and name[:1].isupper():
                return False
            if name == "where":  # one argument: a tuple of index arrays
                return sum(1 for a in call.args if a.keyword is None and not a.star) == 3
            return True
    return False


def jax_array_type(ann, scope: Scope) -> bool:
    """``jax.Array``, ``jnp.ndarray``, ``jaxtyping.Array`` or a jaxtyping ``Float[Array, "n"]``
    (not ``np.ndarray``: a NumPy array takes ``x[i] = v``)."""
    if isinstance(ann, cst.Subscript):
        q = resolve(ann.value, scope)
        if q is None or not q.startswith("jaxtyping.") or not ann.slice:
            return False
        first = ann.slice[0].slice
        return isinstance(first, cst.Index) and jax_array_type(first.value, scope)
    return resolve(ann, scope) in ARRAY_TYPES


# Constructors whose result has the shape they are given (never a 0-d array for a shape
# argument, since ``shape=()`` is spelled out and rare).
_SHAPED = frozenset({"ones", "zeros", "full", "empty", "arange", "linspace", "logspace", "eye", "identity", "tri"})
# Functions whose result has the shape of their array argument(s).
_LIKE = frozenset({"ones_like", "zeros_like", "full_like", "empty_like", "array", "asarray", "stack", "concatenate", "copy"})
# jax.random samplers: ``normal(key, shape)``; without a shape the sample is a scalar.
_SAMPLERS = frozenset({"normal", "uniform", "bernoulli", "randint", "truncated_normal", "choice", "permutation", "gumbel", "categorical"})
# A raw key is a uint32 array of two words (``PRNGKey``), and ``split`` gives a stack of keys,
# raw or typed; ``jax.random.key`` alone is a 0-d typed key, which compares like a bool.
_KEY_ARRAYS = frozenset({"PRNGKey", "split"})
# Array methods whose result is followed as having as many elements as the array.
SIZE_KEEPING = frozenset({"astype", "copy", "transpose"})


def many_elements(q: str, call: cst.Call, shaped: Callable[[cst.BaseExpression], bool]) -> bool:
    """The JAX or NumPy array maker ``q`` certainly builds more than one element at ``call``:
    compared with ``==``, the array is an array of booleans whose truth is ambiguous (a 0-d or
    one-element array compares like a bool).  ``shaped``: whether an argument is such an array."""
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    if q.startswith("jax.random."):
        name = q[len("jax.random.") :]
        if name in _KEY_ARRAYS:
            return True
        shape = positional[1] if len(positional) >= 2 else None
        return name in _SAMPLERS and (shape is not None and not empty_shape(shape) or any(a.keyword is not None and a.keyword.value == "shape" for a in call.args))
    prefix = next((p for p in ("jax.numpy.", "numpy.") if q.startswith(p)), q)
    name = q[len(prefix) :]
    if name in _SHAPED:
        return bool(positional) and not empty_shape(positional[0])
    if name in _LIKE and positional:
        first = positional[0]
        if isinstance(first, (cst.List, cst.Tuple)):
            # one element makes a one-element array, which compares like a bool
            return len(first.elements) > 1 and not any(isinstance(el, cst.StarredElement) for el in first.elements)
        return shaped(first)
    return False


def empty_shape(e) -> bool:
    """``()`` or ``1`` / ``(1,)``: a shape whose array compares to a plain bool."""
    if isinstance(e, (cst.Tuple, cst.List)):
        return not e.elements or len(e.elements) == 1 and _one(e.elements[0].value)
    return _one(e)


def _one(e) -> bool:
    return isinstance(e, cst.Integer) and e.value == "1"
