"""JAX004 unused-noqa."""

from __future__ import annotations

from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import nothing


class UnusedNoqa(Rule):
    """
    What it does
        Reports a jaxlint code in a `# noqa:` comment when no finding of that code is on the
        line, and a bare `# noqa` when no finding at all is on its line.  Off by default:
        enable it with `--extend-select JAX004`.  A code is judged only when every rule it
        names ran, and a bare `# noqa` only when every jaxlint rule ran (`--select ALL
        --preview`): a rule that did not run may be what the comment is for.  Other tools'
        codes (`E501`) are not judged.

        The fix removes the unused codes, or the whole `# noqa` when no code is left (a
        comment after it stays); it is safe, as jaxlint's codes mean nothing to other tools.
        Removing a bare `# noqa` is unsafe: another tool's finding may need it.  No fix when
        other text follows the codes (`# noqa: JAX101 because ...`).

    Why is this bad?
        A stale suppression hides the next real finding on that line.

    Example
        y = x + 1  # noqa: JAX102

    Use instead
        y = x + 1
    """

    code = "JAX004"
    name = "unused-noqa"
    message = "unused {what}"
    fix = "remove the unused {unused} (the whole comment when nothing else is left in it)."
    prevents = nothing("a stale suppression that hides the next real finding")
    fix_safety = "safe"  # removing a bare ``# noqa`` is unsafe (jaxlint.suppressions)
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

        def other(x):
            return x  # noqa
        """
    ]
