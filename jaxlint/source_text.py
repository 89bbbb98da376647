"""Source text as every part of jaxlint reads it: decoded as Python decodes a file, split into
lines where LibCST splits them, and 1-based line and column positions as offsets into it."""

from __future__ import annotations

import io
import re
import tokenize
from typing import Dict, Tuple

# LibCST (and so every position jaxlint reports) counts "\r\n", "\r" and "\n" as line ends.
LINE_END = re.compile(r"\r\n?|\n")


def decode_source(data: bytes) -> str:
    """Decode like Python does: BOM, coding cookie, else UTF-8.  Raises UnicodeDecodeError/SyntaxError."""
    enc, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(enc)
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


class LineIndex:
    """Offsets of 1-based (line, column) positions in ``text``; columns count code points."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in LINE_END.finditer(text)]

    def offset(self, line: int, column: int) -> int:
        if line > len(self.starts):
            return len(self.text)
        return min(self.starts[line - 1] + column - 1, len(self.text))

    def span(self, edit: Dict) -> Tuple[int, int]:
        """The offsets of a span given as ``line``, ``column``, ``end_line``, ``end_column``."""
        return self.offset(edit["line"], edit["column"]), self.offset(edit["end_line"], edit["end_column"])
