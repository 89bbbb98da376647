"""Which expressions are certainly JAX arrays, from the module's text alone.

Outside traced code jaxlint has no abstract interpreter, so this answers a narrow question
precisely: an expression is an array when it is a call of a ``jax.numpy`` / ``jax.random``
function that returns one array, a functional update ``x.at[i].set(v)``, an array method or
arithmetic on an array, or a name every binding of which is one of those (a parameter counts
when it is annotated ``jax.Array``, ``jnp.ndarray`` or ``jaxtyping.Array``).  Anything else is
not known, and rules asking stay silent.
"""

from __future__ import annotations

from typing import Dict, Optional

import libcst as cst

from jaxlint.analysis.jax.jax_api import NUMPY_STATIC
from jaxlint.analysis.syntax.module_index import ModuleIndex
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
_ARITHMETIC = (
    cst.Add,
    cst.Subtract,
    cst.Multiply,
    cst.Divide,
    cst.FloorDivide,
    cst.Modulo,
    cst.Power,
    cst.MatrixMultiply,
)


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


class ArrayFacts:
    def __init__(self, index: ModuleIndex):
        self.index = index
        self._names: Dict[tuple, bool] = {}

    def is_array(self, expr, scope: Scope) -> bool:
        if isinstance(expr, cst.Name):
            return self._name_is_array(expr.value, scope)
        if isinstance(expr, cst.Call):
            if functional_update(expr) is not None:
                return True
            func = expr.func
            if isinstance(func, cst.Attribute) and func.attr.value in ARRAY_METHODS:
                if self.is_array(func.value, scope):
                    return True
            return self._call_returns_array(expr, scope)
        if isinstance(expr, cst.Attribute) and expr.attr.value in ARRAY_ATTRS:
            return self.is_array(expr.value, scope)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, _ARITHMETIC):
            return self.is_array(expr.left, scope) or self.is_array(expr.right, scope)
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus, cst.BitInvert)):
            return self.is_array(expr.expression, scope)
        return False

    def _call_returns_array(self, call: cst.Call, scope: Scope) -> bool:
        q = resolve(call.func, scope)
        return q is not None and returns_one_array(q, call)

    def _name_is_array(self, name: str, scope: Scope) -> bool:
        owner = scope.lookup_scope(name)
        if owner is None:
            return False
        key = (id(owner), name)
        known = self._names.get(key)
        if known is not None:
            return known
        self._names[key] = False  # a name defined through itself is not known
        result = self._bindings_are_arrays(name, owner)
        self._names[key] = result
        return result

    def _bindings_are_arrays(self, name: str, owner: Scope) -> bool:
        binds = owner.bindings.get(name)
        if not binds or name in owner.defs or name in owner.classes or name in owner.imports:
            return False
        for b in binds:
            if b.kind == "aug":
                continue  # ``x += 1`` keeps an array an array
            if b.kind == "param":
                if not self._annotated_array(name, owner):
                    return False
                continue
            if b.kind not in ("assign", "walrus") or b.value is None:
                return False
            if not self.is_array(b.value, owner):
                return False
        return True

    def _annotated_array(self, name: str, owner: Scope) -> bool:
        func = owner.func
        param = func.param(name) if func is not None else None
        return param is not None and param.annotation is not None and self._array_type(param.annotation.annotation, func.scope)

    def _array_type(self, ann, scope: Scope) -> bool:
        if isinstance(ann, cst.Subscript):
            # jaxtyping: Float[Array, "n"]
            q = resolve(ann.value, scope)
            if q is None or not q.startswith("jaxtyping.") or not ann.slice:
                return False
            first = ann.slice[0].slice
            return isinstance(first, cst.Index) and self._array_type(first.value, scope)
        return resolve(ann, scope) in ARRAY_TYPES
