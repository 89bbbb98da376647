"""JAX003 unknown-noqa-code."""

from __future__ import annotations

from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import nothing


class UnknownNoqaCode(Rule):
    """
    What it does
        Reports a code in a `# noqa:` comment that is not a jaxlint code, or is written in lower
        case.

    Why is this bad?
        The comment silences nothing: a typo such as `JAX1O1` (letter O) or `jax101` leaves the
        finding in place, or, worse, looks like a suppression to a reader.  flake8 compares
        `noqa` codes as written, and so does jaxlint.

    Example
        if x > 0:  # noqa: JAX1O1

    Use instead
        if x > 0:  # noqa: JAX101
    """

    code = "JAX003"
    name = "unknown-noqa-code"
    message = "{detail}"
    fix = "write the code as `jaxlint --list-rules` shows it (upper case), or remove it."
    prevents = nothing("a suppression that silences nothing")
    bad = [
        """
        import jax

        @jax.jit
        def count(x):
            while x > 0:  # noqa: JAX1O2  # error: JAX102, JAX003
                x = x - 1
            return x

        def plain(n):
            if n > 0:  # noqa: jax101  # error: JAX003
                return n
            return 0
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

        text = "# noqa: JAX1O1 in a string is no comment"
        """
    ]
