"""JAX001 syntax-error."""

from __future__ import annotations

from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, nothing


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
    prevents = nothing("SyntaxError / UnicodeDecodeError at import", ErrorPattern("SyntaxError"), ErrorPattern("UnicodeDecodeError"))
    whole_file = True
