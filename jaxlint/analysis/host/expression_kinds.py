"""What kind of value an expression of the module builds, read from its syntax and the import
table: a Python container, a JAX array (what reaches a static parameter is host_values's)."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.syntax.scopes import CONTAINER_CTORS, VALUE_KINDS, Scope
from jaxlint.analysis.jax.jax_api import STATIC_FUNCS
from jaxlint.analysis.model.names import resolve


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
