"""JAX101 traced-if."""

from __future__ import annotations

from jaxlint import fixes
from jaxlint.analysis.traced.value_checks import plain_traced, value_label
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


_TEST_WORDS = {
    "if": "`if`",
    "elif": "`elif`",
    "ifexp": "`... if ... else ...`",
    "comprehension": "comprehension `if` filter",
}


class TracedIf(Rule):
    """
    What it does
        Flags a Python ``if``/``elif``, conditional expression or comprehension filter whose
        condition is a traced value inside a jitted (or otherwise traced) function.

    Why is this bad?
        A tracer has no truth value: JAX raises ``TracerBoolConversionError`` as soon as the
        function is traced.  Python branches are decided once, at trace time.

    Example
        @jax.jit
        def relu(x):
            if x > 0:
                return x
            return 0.0 * x

    Use instead
        ``jnp.where(x > 0, x, 0.0 * x)`` when both branches are cheap and safe to compute;
        ``lax.cond(x > 0, f_true, f_false, x)`` when a branch is costly or unsafe on the other
        input (only one branch runs); or make the value static with ``static_argnames`` if it
        is really configuration.

    References
        https://jax.readthedocs.io/en/latest/errors.html#jax.errors.TracerBoolConversionError
    """

    code = "JAX101"
    name = "traced-if"
    message = "Python {kind} on traced value `{var}` in {where}"
    fix = (
        "use jnp.where(cond, a, b) if both branches are cheap and safe, lax.cond(cond, true_fn, "
        "false_fn, operand) if a branch is costly or unsafe, or static_argnames if `{var}` is configuration"
    )
    prevents = raises(ErrorPattern("TracerBoolConversionError"), tracer_type_error=True)
    fix_safety = "unsafe"
    bad = [
        """
        import jax

        @jax.jit
        def relu_broken(x):
            if x > 0:  # error: JAX101
                return x
            return 0.0 * x

        @jax.jit
        def clip_sign(x):
            return x if x.sum() > 0 else -x  # error: JAX101
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp
        from jax import lax

        @jax.jit
        def relu_where(x):
            return jnp.where(x > 0, x, 0.0 * x)

        @jax.jit
        def relu_cond(x):
            return lax.cond(x > 0, lambda v: v, lambda v: 0.0 * v, x)

        @jax.jit
        def shape_check(x):
            if x.ndim == 2:
                return x.sum(axis=1)
            return x

        def grad_ok(x):
            if x > 0:
                return x ** 2
            return -x

        g = jax.grad(grad_ok)
        """
    ]

    def on_test(self, ctx, kind, test, v, stmt):
        if kind in ("if", "elif", "ifexp", "comprehension") and plain_traced(v):
            fix = None
            if kind == "ifexp":
                fix = fixes.where_select.where_fix_ifexp(stmt, ctx.frame.scope, ctx.frame.lookup)
            elif kind == "if":
                fix = fixes.where_select.where_fix_if(stmt, fixes.where_select.next_statement(ctx.func.node, stmt), ctx.frame.scope, ctx.frame.lookup)
            if fix is None and kind in ("if", "elif"):
                fix = fixes.static_param.parameter_fix(ctx, test, v)
            ctx.report(self, test, kind=_TEST_WORDS[kind], var=value_label(v, test), autofix=fix)
