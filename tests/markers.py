"""Expected findings written in the code itself: ``# error: JAX101`` / ``# error: JAX101, JAX302``.

A code may carry a column: ``# error: JAX101@8`` asserts the 1-based column too.
"""

from __future__ import annotations

import io
import re
import tokenize
from typing import Dict, List, Set, Tuple

MARK_RE = re.compile(r"#\s*error:\s*(?P<codes>JAX\d{3}(?:@\d+)?(?:\s*,\s*JAX\d{3}(?:@\d+)?)*)")


def expected_markers(text: str) -> Tuple[Set[Tuple[int, str]], Dict[Tuple[int, str], int]]:
    """(set of (line, code), {(line, code): column} for markers that give one)."""
    lines: Set[Tuple[int, str]] = set()
    cols: Dict[Tuple[int, str], int] = {}
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        tokens = []
    comments = [(t.start[0], t.string) for t in tokens if t.type == tokenize.COMMENT]
    for line, comment in comments:
        m = MARK_RE.search(comment)
        if not m:
            continue
        for item in re.split(r"\s*,\s*", m.group("codes")):
            code, _, col = item.partition("@")
            lines.add((line, code))
            if col:
                cols[(line, code)] = int(col)
    return lines, cols


def actual(findings) -> Set[Tuple[int, str]]:
    return {(f.line, f.code) for f in findings}


def describe(pairs, findings=None) -> List[str]:
    msgs = {}
    for f in findings or []:
        msgs[(f.line, f.code)] = f.message
    return [f"line {l}: {c} {msgs.get((l, c), '')}".rstrip() for l, c in sorted(pairs)]
