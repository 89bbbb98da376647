"""``x[i] = v`` / ``x[i] op= v`` on a JAX array -> ``x = x.at[i].<method>(v)`` (JAX304).

Only for a plain name (``x``, not ``self.x`` or ``a.b``) that the statement's own scope binds
(:func:`binds_locally`): rebinding a global or closure name there would make it local to the
function, and every read of it before the new assignment an ``UnboundLocalError``.  The original
statement raises ``TypeError`` on a JAX array, so the rebinding cannot change code that ran.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.fixes.declare import SAFE, Fix, replace
from jaxlint.fixes.names import code

_METHODS = {
    cst.AddAssign: "add",
    cst.SubtractAssign: "subtract",
    cst.MultiplyAssign: "multiply",
    cst.DivideAssign: "divide",
    cst.PowerAssign: "power",
}


def binds_locally(scope, name: str) -> bool:
    """``name`` is a local variable of ``scope`` already (a statement of the scope itself binds
    it, and no ``global``/``nonlocal`` declares it), so one more assignment changes no scoping."""
    if scope is None or scope.kind == "class" or scope.lookup_scope(name) is not scope:
        return False
    if name in scope.globals or name in scope.nonlocals:
        return False
    return any(b.order is not None for b in scope.bindings.get(name, ()))


def at_update_fix(stmt, scope) -> Optional[Fix]:
    """The fix for ``stmt`` in ``scope`` (the scope whose code the statement is), or None."""
    if isinstance(stmt, cst.Assign):
        if len(stmt.targets) != 1:
            return None  # x[0] = y[0] = v: two targets, one expression
        target, method = stmt.targets[0].target, "set"
    elif isinstance(stmt, cst.AugAssign):
        target, method = stmt.target, _METHODS.get(type(stmt.operator))
        if method is None:
            return None  # //=, %=, @=, ...: no .at[] method computes them
    else:
        return None
    if not isinstance(target, cst.Subscript) or not isinstance(target.value, cst.Name):
        return None
    name = target.value.value
    if not binds_locally(scope, name):
        return None
    index = code(target.with_changes(value=cst.Name("_"))).strip()[1:]  # "[i, j]"
    value = code(stmt.value)
    text = f"{name} = {name}.at{index}.{method}({value})"
    return replace(stmt, text, f"Replace with `{name} = {name}.at{index}.{method}(...)`", SAFE)
