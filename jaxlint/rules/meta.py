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
