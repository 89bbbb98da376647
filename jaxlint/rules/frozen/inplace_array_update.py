"""JAX304 inplace-array-update."""

from __future__ import annotations

import libcst as cst

from jaxlint import fixes
from jaxlint.analysis.traced.values import ARRAY, DICT, JAXARR, OPAQUE, PYSEQ, REF, STATIC, TRACED
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


def _at_method(stmt) -> str:
    if isinstance(stmt, cst.AugAssign):
        op = type(stmt.operator).__name__
        return {"AddAssign": "add", "SubtractAssign": "subtract", "MultiplyAssign": "multiply", "DivideAssign": "divide", "PowerAssign": "power"}.get(op, "set")
    return "set"


class InplaceArrayUpdate(Rule):
    """
    What it does
        Flags ``x[i] = v`` and ``x[i] += v`` where ``x`` is a JAX array: a traced value inside a
        traced function, or a variable bound only to ``jnp.*`` results anywhere; also
        ``self.buf[i] = v`` in a method when every assignment of ``.buf`` in the module binds a
        ``jnp.*`` result (``self.buf = jnp.zeros(n)`` in ``__init__``).  A traced value whose
        structure is unknown (a parameter, or what one is passed on to) may be a dict of
        arrays: a store into it is flagged only under an index no dict key can be (a slice,
        an integer, a tracer).  A Ref (``jax.new_ref``, a Pallas kernel's refs, and the views
        ``ref.at[i]`` of one) is mutable: ``ref[...] = v`` is its API.

    Why is this bad?
        JAX arrays are immutable: ``TypeError: JAX arrays are immutable and do not support
        in-place item assignment``.

    Example
        x = jnp.zeros(3)
        x[0] = 1.0

    Use instead
        ``x = x.at[0].set(1.0)`` (``.add``, ``.multiply``, ``.min``, ``.max`` for the others).

    References
        https://jax.readthedocs.io/en/latest/_autosummary/jax.numpy.ndarray.at.html
    """

    code = "JAX304"
    name = "inplace-array-update"
    message = "In-place update of JAX array `{var}`; JAX arrays are immutable"
    fix = "use `{var} = {var}.at[...].{method}(...)` instead"
    prevents = raises(
        ErrorPattern("TypeError", r"JAX arrays are immutable"),
        description="TypeError: JAX arrays are immutable and do not support in-place item assignment",
        # no JAX array supports ``x[i] = v``, concrete or traced
        under_grad=True,
    )
    fix_safety = "safe"
    bad = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def bump(x):
            x[0] = 1.0  # error: JAX304
            return x

        buf = jnp.zeros(4)
        buf[1] += 2.0  # error: JAX304
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp
        import numpy as np

        @jax.jit
        def bump(x, d):
            d["seen"] = x
            x = x.at[0].set(1.0)
            return x

        buf = np.zeros(4)
        buf[1] += 2.0
        """
    ]

    def on_store(self, ctx, kind, target, base, idx, v, stmt, aug):
        # a concrete JAX array (a custom derivative's argument called on its own, a global
        # array under vmap) is as immutable as a tracer
        array = base.kind == TRACED or base.kind == STATIC and base.flags & JAXARR
        if kind != "subscript" or not array or base.flags & (DICT | PYSEQ | OPAQUE | REF):
            return
        if len(target.slice) == 1:
            sl = target.slice[0].slice
            if isinstance(sl, cst.Index) and isinstance(sl.value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
                return  # a dict pytree
            if not base.flags & ARRAY and not _array_index(sl, idx[0] if idx else None):
                # a value of unknown structure (a parameter as received, or passed on from
                # one) that may be a dict, given a key that may be a string: a dict store
                return
        var = cst.Module([]).code_for_node(target.value)
        local = isinstance(target.value, cst.Name) and ctx.is_local(target.value.value)
        fix = fixes.at_update.at_update_fix(stmt, ctx.frame.scope) if local else None
        ctx.report(self, stmt, var=var, method=_at_method(stmt), autofix=fix)

    def check_module(self, m):
        for target, stmt, scope, aug in m.index.subscript_stores:
            obj = target.value
            if isinstance(obj, cst.Attribute) and isinstance(obj.value, cst.Name) and stmt is not None:
                if m.host_values.is_array(obj, scope):
                    var = cst.Module([]).code_for_node(obj)
                    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and stmt.body else stmt
                    m.report(self, small, var=var, method=_at_method(small))
                continue
            if not isinstance(obj, cst.Name) or stmt is None:
                continue
            if m.host_values.is_array(obj, scope):
                small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and stmt.body else stmt
                # rebinding a name of an outer scope here would make it local to this one
                local = scope.lookup_scope(obj.value) is scope
                m.report(self, small, var=obj.value, method=_at_method(small), autofix=fixes.at_update.at_update_fix(small, scope) if local else None)


def _array_index(sl, v) -> bool:
    """An index only an array takes: a slice, ``...``, an integer literal, or a tracer (no dict
    key can be one: tracers are unhashable)."""
    if isinstance(sl, cst.Slice):
        return True
    value = sl.value
    if isinstance(value, cst.UnaryOperation):
        value = value.expression
    if isinstance(value, (cst.Integer, cst.Ellipsis, cst.Tuple)):
        return True
    return v is not None and v.kind == TRACED
