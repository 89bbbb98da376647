"""``# noqa`` comments: which findings a line suppresses."""

from __future__ import annotations

import re
from typing import List, Optional, Tuple

from jaxlint.findings import Finding

NOQA_PREFIX_RE = re.compile(r"#\s*noqa:\s*(?P<codes>[A-Z]+[0-9]*(?:[,\s]+[A-Z]+[0-9]*)*)", re.IGNORECASE)


def noqa_codes(line: str) -> Optional[Tuple[str, ...]]:
    """None: no noqa; (): bare noqa (everything); else the code prefixes listed."""
    if "#" not in line or "noqa" not in line.lower():
        return None
    m = NOQA_PREFIX_RE.search(line)
    if m:
        return tuple(c.upper() for c in re.split(r"[,\s]+", m.group("codes")) if c)
    if re.search(r"#\s*noqa(?![:\w])", line, re.IGNORECASE):
        return ()
    return None


def apply_noqa(findings: List[Finding], text: str) -> List[Finding]:
    if not findings or "noqa" not in text.lower():
        return findings
    lines = text.splitlines()
    out = []
    for f in findings:
        line = lines[f.line - 1] if 0 < f.line <= len(lines) else ""
        codes = noqa_codes(line)
        if codes is None or (codes and not any(f.code.startswith(c) for c in codes)):
            out.append(f)
    return out
