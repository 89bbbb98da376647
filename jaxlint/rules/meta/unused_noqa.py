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
        y = x + 1  # noqa: JAX102

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
            y = x * 2  # noqa: JAX102  # error: JAX004
            while x > 0:  # noqa: JAX102, JAX302  # error: JAX004
                x = x - y
            return x
        """
    ]
    good = [
        """
        import jax

        @jax.jit
        def count(x):
            while x > 0:  # noqa: JAX102, E501
                x = x - 1
            return x

        def plain(x):
            return x  # noqa: E501
        """
    ]
