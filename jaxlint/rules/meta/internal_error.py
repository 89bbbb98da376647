"""JAX002 internal-error."""

from __future__ import annotations

from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import nothing


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
    prevents = nothing("nothing: this is a jaxlint bug")
    whole_file = True
