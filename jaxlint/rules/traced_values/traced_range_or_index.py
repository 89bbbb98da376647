"""JAX103 traced-range-or-index."""

from __future__ import annotations

import libcst as cst

from jaxlint import fixes
from jaxlint.analysis.traced.values import BOOL, PYSEQ, TRACED
from jaxlint.analysis.traced.value_checks import plain_traced, value_label
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class TracedRangeOrIndex(Rule):
    """
    What it does
        Flags ``range()`` with a traced bound, and a Python list, tuple or shape indexed with a
        traced integer.

    Why is this bad?
        Both need a concrete Python ``int``: JAX raises ``TracerIntegerConversionError``.  A
        loop count that comes from an argument is configuration, not data.

    Example
        @jax.jit
        def power(x, n):
            for _ in range(n):
                x = x * x
            return x

    Use instead
        Make the count static (``@partial(jax.jit, static_argnames=["n"])``) or use
        ``lax.fori_loop(0, n, body, x)``; index an array (``jnp.asarray(table)[i]``) rather than
        a Python list.

    References
        https://jax.readthedocs.io/en/latest/errors.html#jax.errors.TracerIntegerConversionError
    """

    code = "JAX103"
    name = "traced-range-or-index"
    message = "{what} with traced value `{var}` in {where}"
    fix = "make `{var}` static with static_argnames, or use lax.fori_loop / lax.scan; index arrays, not Python sequences, with traced integers"
    prevents = raises(ErrorPattern("TracerIntegerConversionError"), tracer_type_error=True)
    fix_safety = "unsafe"
    bad = [
        """
        import jax

        @jax.jit
        def power_iter(x, n):
            for _ in range(n):  # error: JAX103
                x = x * x
            return x

        @jax.jit
        def pick(i):
            table = [1.0, 2.0, 3.0]
            return table[i]  # error: JAX103
        """
    ]
    good = [
        """
        from functools import partial
        import jax

        @partial(jax.jit, static_argnames=["n"])
        def power_iter(x, n):
            for _ in range(n):
                x = x * x
            return x

        @jax.jit
        def rows(x):
            for i in range(x.shape[0]):
                x = x.at[i].set(x[i] * 2)
            return x
        """
    ]

    def on_call(self, ctx, node, q, argvals):
        if q == "builtins.range":
            for a, v in argvals:
                if plain_traced(v):
                    ctx.report(self, node, what="`range()`", var=value_label(v, node), autofix=fixes.static_param.parameter_fix(ctx, a.value, v))
                    return

    def on_subscript(self, ctx, node, base, idx):
        if base.kind == TRACED or not base.flags & PYSEQ or len(idx) != 1:
            return
        el = node.slice[0]
        if isinstance(el.slice, cst.Index) and plain_traced(idx[0]) and not idx[0].flags & BOOL:
            ctx.report(self, node, what="Python sequence indexed", var=value_label(idx[0], el.slice.value))
