"""JAX102 traced-while."""

from __future__ import annotations

from jaxlint import fixes
from jaxlint.analysis.traced.value_checks import plain_traced, value_label
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class TracedWhile(Rule):
    """
    What it does
        Flags a Python ``while`` loop whose condition is traced.

    Why is this bad?
        The loop condition must be a Python bool at trace time; with a tracer JAX raises
        ``TracerBoolConversionError``.  A convergence loop (``while err > tol``) is the classic case.

    Example
        @jax.jit
        def newton(x):
            while jnp.abs(x * x - 2.0) > 1e-6:
                x = x - (x * x - 2.0) / (2.0 * x)
            return x

    Use instead
        ``lax.while_loop(cond_fun, body_fun, init)``, or ``lax.fori_loop`` / a Python loop over a
        static trip count.

    References
        https://jax.readthedocs.io/en/latest/_autosummary/jax.lax.while_loop.html
    """

    code = "JAX102"
    name = "traced-while"
    message = "Python `while` condition depends on traced value `{var}` in {where}"
    fix = "use lax.while_loop(cond_fun, body_fun, init), or loop over a static count"
    prevents = raises(ErrorPattern("TracerBoolConversionError"), tracer_type_error=True)
    fix_safety = "unsafe"
    bad = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def halve_until_small(x):
            while jnp.abs(x) > 1.0:  # error: JAX102
                x = x / 2
            return x
        """
    ]
    good = [
        """
        import jax
        from jax import lax

        @jax.jit
        def halve_until_small(x):
            return lax.while_loop(lambda v: abs(v) > 1.0, lambda v: v / 2, x)
        """
    ]

    def on_test(self, ctx, kind, test, v, stmt):
        if kind == "while" and plain_traced(v):
            ctx.report(self, test, var=value_label(v, test), autofix=fixes.static_param.parameter_fix(ctx, test, v))
