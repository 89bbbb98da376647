"""Where a file fails to parse, and why, in words a person reads.

LibCST's parser reports an error at the start of the line and names the tokens it expected
(``expected one of ->, :``).  Python's own parser (``ast.parse``: it compiles nothing and runs
nothing) knows the exact place and says it better (``expected ':'`` under ``return``).  So the
message and the reported line and column come from it; when Python accepts what LibCST cannot
parse (syntax newer than LibCST), the LibCST message and the position it names are used."""

from __future__ import annotations

import ast
import re
import warnings
from typing import Tuple

_AT_RE = re.compile(r"^(?:parser error: )?error at (\d+):(\d+): ")


def describe(text: str, error) -> Tuple[str, int, int]:
    """(message, line, 1-based column) for a LibCST ParserSyntaxError on ``text``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarnings of valid code are not our report
            ast.parse(text)
    except SyntaxError as e:
        if e.lineno:
            column = e.offset if e.offset and e.offset > 0 else 1
            return f"syntax error: {e.msg}", e.lineno, column
    except (ValueError, RecursionError, MemoryError):
        pass
    message = error.message
    m = _AT_RE.match(message)
    if m:
        return f"syntax error: {message[m.end():]}", int(m.group(1)), int(m.group(2))
    return f"syntax error: {message}", error.raw_line, error.raw_column + 1
