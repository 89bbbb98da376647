"""JAX004 unused-noqa."""

from __future__ import annotations

from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import nothing


class UnusedNoqa(Rule):
    """
    What it does
        Reports a jaxlint code in a `# noqa:` comment when no finding of that code is on the
        line.  Off by default: enable it with `--extend-select JAX004`.

    Why is this bad?
        A stale suppression hides the next real finding on that line.

    Example
        y = x + 1  # noqa: JAX101

    Use instead
        y = x + 1
    """

    code = "JAX004"
    name = "unused-noqa"
    message = "unused `noqa` code: {codes}"
    fix = "remove {codes} from the `# noqa` comment."
    prevents = nothing("a stale suppression that hides the next real finding")
    default_enabled = False
    bad = [
        """
        import jax

        @jax.jit
        def scale(x):
            y = x * 2  # noqa: JAX101  # error: JAX004
            if x > 0:  # noqa: JAX101, JAX302  # error: JAX004
                return y
            return -y
        """
    ]
    good = [
        """
        import jax

        @jax.jit
        def relu(x):
            if x > 0:  # noqa: JAX101, E501
                return x
            return 0.0 * x

        def plain(x):
            return x  # noqa: E501
        """
    ]
