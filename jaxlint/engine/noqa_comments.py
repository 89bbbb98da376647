"""``--add-noqa``: a ``# noqa: CODE`` comment on the line of every remaining finding (and the
language server's "ignore" quick fix, one finding at a time).

A comment can only end a line that ends a token line (not inside a multi-line string, not
after a backslash continuation); findings on other lines are left alone.  A line that already
has ``# noqa: CODES`` gets the new codes added to its list.
"""

from __future__ import annotations

import io
import re
import tokenize
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from jaxlint.atomic import describe, write_bytes
from jaxlint.engine.fixing import decode_file, encode_file, parse_error
from jaxlint.engine.source import read_regular_file
from jaxlint.findings import Finding
from jaxlint.suppressions import INLINE, codes_of
from jaxlint.rules import RULES_BY_CODE
from jaxlint.source_text import LINE_END


def _commentable_lines(text: str) -> Set[int]:
    lines = set()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.NEWLINE, tokenize.NL):
                lines.add(tok.start[0])
    except (tokenize.TokenError, SyntaxError):
        return set()
    return lines


def add_noqa(text: str, findings: Iterable) -> Tuple[str, int]:
    """(text with the comments added, how many lines got one).  A finding about the file as a
    whole (its rule's ``whole_file``) gets no comment."""
    codes: Dict[int, List[str]] = {}
    for f in findings:
        rule = RULES_BY_CODE.get(f.code)
        if rule is not None and rule.whole_file:
            continue
        codes.setdefault(f.line, [])
        if f.code not in codes[f.line]:
            codes[f.line].append(f.code)
    if not codes:
        return text, 0
    ok = _commentable_lines(text)
    parts = LINE_END.split(text)
    ends = LINE_END.findall(text)
    added = 0
    for line, cs in codes.items():
        if line not in ok or line > len(parts):
            continue
        body = parts[line - 1]
        m = re.search(INLINE, body)
        if m and m.group("codes") is None:
            continue  # a bare ``# noqa`` silences every code already
        if m:
            have = {c.upper() for c in codes_of(m.group("codes"))}
            body = body[: m.end("codes")] + "".join(", " + c for c in cs if c not in have) + body[m.end("codes"):]
        else:
            body = body.rstrip() + "  # noqa: " + ", ".join(cs)
        parts[line - 1] = body
        added += 1
    out = "".join(p + (ends[i] if i < len(ends) else "") for i, p in enumerate(parts))
    return out, added


def add_noqa_to_files(
    findings: Sequence[Finding], real_path: Callable[[str], Optional[str]], failed: Optional[List[Tuple[str, str]]] = None
) -> Tuple[int, int]:
    """(comments added, files changed) for ``--add-noqa``; files that could not be written are
    appended to ``failed`` as (display path, reason)."""
    by_path = {}
    for f in findings:
        by_path.setdefault(f.path, []).append(f)
    added = files = 0
    for display, fs in sorted(by_path.items()):
        path = real_path(display)
        if path is None:
            continue
        try:
            text, encoding, bom = decode_file(read_regular_file(path))
        except (OSError, UnicodeDecodeError, SyntaxError, LookupError):
            continue
        new, n = add_noqa(text, fs)
        if n and parse_error(new) is None:
            try:
                write_bytes(path, encode_file(new, encoding, bom))
            except (OSError, UnicodeEncodeError) as e:
                if failed is not None:
                    failed.append((display, describe(e) if isinstance(e, OSError) else f"cannot encode as {encoding}"))
                continue
            added += n
            files += 1
    return added, files
