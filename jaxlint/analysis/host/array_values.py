"""Which calls and operations give a JAX array: the ``jax.numpy`` / ``jax.random`` functions
that return one array, the functional update ``x.at[i].set(v)``, the array methods and
attributes that give an array again, and the annotations that declare one.  The host evaluator
(``host_values``) reads these tables; ``HostValues.is_array`` is the question rules ask.
"""

from __future__ import annotations

from typing import Optional

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
