"""What kind of value an expression of the module builds, read from its syntax and the import
table: a Python container, a JAX array, something surely unhashable."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.scopes import CONTAINER_CTORS, VALUE_KINDS, Scope
from jaxlint.analysis.jax_api import STATIC_FUNCS
from jaxlint.analysis.transforms import resolve


def is_container_value(expr, scope: Scope) -> bool:
    if isinstance(expr, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)):
        return True
    if isinstance(expr, cst.Call):
        if isinstance(expr.func, cst.Name) and scope.lookup_scope(expr.func.value) is None:
            return expr.func.value in ("list", "dict", "set")
        q = resolve(expr.func, scope)
        return q in CONTAINER_CTORS
    return False


def all_container_bindings(owner: Scope, name: str) -> bool:
    binds = [b for b in owner.bindings.get(name, ()) if b.kind in VALUE_KINDS]
    return bool(binds) and all(b.value is not None and is_container_value(b.value, owner) for b in binds)


ARRAY_MAKER_PREFIXES = ("jax.numpy.", "jax.random.")


def is_jax_array_expr(expr, scope: Scope) -> bool:
    if isinstance(expr, cst.Call):
        q = resolve(expr.func, scope)
        if q is None:
            # x.at[i].set(v) keeps it a JAX array
            f = expr.func
            return (
                isinstance(f, cst.Attribute)
                and f.attr.value in ("set", "add", "multiply", "divide", "min", "max", "power")
                and isinstance(f.value, cst.Subscript)
                and isinstance(f.value.value, cst.Attribute)
                and f.value.value.attr.value == "at"
            )
        if q in STATIC_FUNCS or not q.startswith(ARRAY_MAKER_PREFIXES):
            return False
        last = q.rsplit(".", 1)[-1]
        return last[:1].islower() and last not in ("PRNGKey", "key", "split", "fold_in", "key_data")
    return False


NUMPY_ARRAY_MAKERS = frozenset(
    {"array", "asarray", "zeros", "ones", "empty", "full", "arange", "linspace", "eye", "zeros_like", "ones_like"}
)


def describe_unhashable(expr, scope, depth: int = 0) -> Optional[str]:
    """'a list' / 'a dict' / 'a set' / 'an array' for an expression that is surely unhashable."""
    if isinstance(expr, (cst.List, cst.ListComp)):
        return "a list"
    if isinstance(expr, (cst.Dict, cst.DictComp)):
        return "a dict"
    if isinstance(expr, (cst.Set, cst.SetComp)):
        return "a set"
    if isinstance(expr, cst.Call):
        q = resolve(expr.func, scope)
        if q is None and isinstance(expr.func, cst.Name) and scope.lookup_scope(expr.func.value) is None:
            if expr.func.value in ("list", "dict", "set", "bytearray"):
                return "a " + expr.func.value
            return None
        if q is None:
            return None
        if q in CONTAINER_CTORS:
            return "a " + q.rsplit(".", 1)[-1]
        if q.startswith(("jax.numpy.", "jax.random.")) and q not in STATIC_FUNCS:
            if q.rsplit(".", 1)[-1][:1].isupper():
                return None
            return "an array"
        if q.startswith("numpy.") and q[6:] in NUMPY_ARRAY_MAKERS:
            return "an array"
        return None
    if isinstance(expr, cst.Name) and depth < 3:
        owner = scope.lookup_scope(expr.value)
        if owner is None:
            return None
        binds = owner.bindings.get(expr.value, ())
        if len(binds) == 1 and binds[0].kind == "assign" and binds[0].value is not None:
            return describe_unhashable(binds[0].value, owner, depth + 1)
    return None
