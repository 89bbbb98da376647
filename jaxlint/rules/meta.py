"""JAX0xx: the linter reporting on itself.  These never come from the analysis."""

from jaxlint.rules.base import Rule


class ParseError(Rule):
    """
    What it does
        Reports a file that could not be read or parsed as Python.

    Why is this bad?
        jaxlint cannot check what it cannot parse; the file may also fail to import.

    Example
        def f(x) return x

    Use instead
        def f(x):
            return x
    """

    code = "JAX001"
    name = "syntax-error"
    message = "{detail}"
    fix = "Fix the syntax error (or the file's encoding) so that the file parses."
    prevents = "SyntaxError / UnicodeDecodeError at import"


class InternalError(Rule):
    """
    What it does
        Reports an exception raised inside jaxlint while analysing a file.

    Why is this bad?
        It is a bug in jaxlint, not in your code; the rest of the run continues.  Please report
        it with the file that triggers it.

    Example
        (none)

    Use instead
        (none)
    """

    code = "JAX002"
    name = "internal-error"
    message = "internal error while analysing this file: {detail}"
    fix = "Report this to the jaxlint maintainers; exclude the file meanwhile."
    prevents = "nothing: this is a jaxlint bug"


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
    prevents = "a suppression that silences nothing"
    bad = [
        """
        import jax

        @jax.jit
        def relu(x):
            if x > 0:  # noqa: JAX1O1  # error: JAX101, JAX003
                return x
            return 0.0 * x

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
    prevents = "a stale suppression that hides the next real finding"
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
