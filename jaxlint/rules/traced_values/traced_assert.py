"""JAX105 traced-assert."""

from __future__ import annotations

from jaxlint.analysis.traced.value_checks import plain_traced, value_label
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class TracedAssert(Rule):
    """
    What it does
        Flags ``assert`` on a traced value.

    Why is this bad?
        ``assert`` converts its test to a Python bool: ``TracerBoolConversionError`` at trace
        time.  Asserting on shapes and dtypes is fine; asserting on values is not.

    Example
        @jax.jit
        def safe_log(x):
            assert (x > 0).all()
            return jnp.log(x)

    Use instead
        ``jax.experimental.checkify.check(...)`` or ``equinox.error_if(x, x <= 0, "...")``; keep
        ``assert`` for static facts such as ``x.ndim == 1``.

    References
        https://jax.readthedocs.io/en/latest/debugging/checkify_guide.html
    """

    code = "JAX105"
    name = "traced-assert"
    message = "`assert` on traced value `{var}` in {where}"
    fix = "use jax.experimental.checkify.check or equinox.error_if for runtime checks; assert only on static facts such as shapes"
    prevents = raises(ErrorPattern("TracerBoolConversionError"), tracer_type_error=True)
    bad = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def safe_log(x):
            assert (x > 0).all()  # error: JAX105
            return jnp.log(x)
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def safe_log(x):
            assert x.ndim == 1, "expects a vector"
            return jnp.log(x)
        """
    ]

    def on_test(self, ctx, kind, test, v, stmt):
        if kind == "assert" and plain_traced(v):
            ctx.report(self, stmt, var=value_label(v, test))
