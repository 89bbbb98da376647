"""JAX106 traced-bool-op."""

from __future__ import annotations

import libcst as cst

from jaxlint import fixes
from jaxlint.analysis.traced.values import DICT, PYSEQ, TRACED
from jaxlint.analysis.traced.value_checks import plain_traced, staged_array, value_label
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class TracedBoolOp(Rule):
    """
    What it does
        Flags ``and``/``or``/``not``, ``min()``/``max()`` and ``in`` applied to traced values
        outside an ``if``/``while`` condition (those are reported as JAX101/JAX102).

    Why is this bad?
        Each converts a tracer to a Python bool: ``TracerBoolConversionError``.

    Example
        @jax.jit
        def clamp(x):
            return min(x, 1.0)

    Use instead
        ``jnp.minimum``/``jnp.maximum``, ``jnp.logical_and``/``logical_or``/``logical_not``
        (or ``&``, ``|``, ``~`` on boolean arrays), ``jnp.isin(x, values)``.

    References
        https://jax.readthedocs.io/en/latest/errors.html#jax.errors.TracerBoolConversionError
    """

    code = "JAX106"
    name = "traced-bool-op"
    message = "{op} converts traced value `{var}` to a Python bool in {where}"
    fix = "use jnp.logical_and / jnp.logical_or / jnp.logical_not, jnp.minimum / jnp.maximum, jnp.isin, or (a < x) & (x < b) for a chained comparison"
    prevents = raises(ErrorPattern("TracerBoolConversionError"), tracer_type_error=True)
    fix_safety = "unsafe"
    bad = [
        """
        import jax

        @jax.jit
        def clamp(x, y):
            lo = min(x, 1.0)  # error: JAX106
            both = (x > 0) and (y > 0)  # error: JAX106
            return lo, both
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def clamp(x, y):
            lo = jnp.minimum(x, 1.0)
            both = jnp.logical_and(x > 0, y > 0)
            return lo, both, abs(x), round(y)
        """
    ]

    def on_boolop(self, ctx, node, a, b, in_test):
        if not in_test and plain_traced(a):
            op = "`and`" if isinstance(node.operator, cst.And) else "`or`"
            ctx.report(self, node, op=op, var=value_label(a, node.left), autofix=fixes.logical_ops.boolop_fix(node, ctx.frame.scope))

    def on_chained_compare(self, ctx, node, first, in_test):
        if not in_test and plain_traced(first):
            fix = fixes.declare.replace(node, fixes.where_select.condition_code(node), "Replace with `(a < x) & (x < b)`", fixes.declare.UNSAFE)
            ctx.report(self, node, op="a chained comparison", var=value_label(first, node.left), autofix=fix)

    def on_not_(self, ctx, node, v, in_test):
        if not in_test and plain_traced(v):
            ctx.report(self, node, op="`not`", var=value_label(v, node.expression), autofix=fixes.logical_ops.not_fix(node, ctx.frame.scope))

    def on_call(self, ctx, node, q, argvals):
        if q in ("builtins.min", "builtins.max"):
            for a, v in argvals:
                if a.keyword is None and (
                    plain_traced(v) or (v.kind == TRACED and v.flags & PYSEQ and len(argvals) == 1) or staged_array(ctx.frame, v)
                ):
                    fix = fixes.logical_ops.min_max_fix(node, q[9:], ctx.frame.scope)
                    ctx.report(self, node, op=f"`{q[9:]}()`", var=value_label(v, a.value), autofix=fix)
                    return

    def on_compare_in(self, ctx, node, left, right, comparison, in_test):
        if in_test:
            return
        if plain_traced(left) and right.flags & PYSEQ or plain_traced(right) and not left.flags & (PYSEQ | DICT):
            v = left if plain_traced(left) else right
            ctx.report(self, node, op="`in`", var=value_label(v, node.left))
