"""reviewdog's Diagnostic Format (rdjson), for ``reviewdog -f=rdjson``.

reviewdog reads this with a strict protobuf JSON parser that rejects unknown fields, so nothing
outside the schema is emitted: the dynamic verdict goes into the message text.  Columns are
1-based UTF-8 byte offsets, as the format requires (jaxlint counts characters).  ``suggestions``
carry safe fixes only (reviewdog posts them as one-click changes); unsafe ones only with
``--unsafe-fixes``."""

from __future__ import annotations

import json
from typing import Optional, Sequence

from jaxlint.findings import Finding
from jaxlint.fingerprints import SourceLines, repo_path
from jaxlint.formats._common import HOMEPAGE, noted_message, rule_url, severity, suggested_edit


def byte_column(sources: SourceLines, path: str, line: int, column: int) -> int:
    text = sources.line(path, line)
    return len(text[: column - 1].encode("utf-8", "surrogatepass")) + 1 if text else column


def _range(sources: SourceLines, path: str, span) -> dict:
    """The rdjson range of ``span`` (a finding's fields, an edit or a related location) in ``path``."""
    return {
        "start": {"line": span["line"], "column": byte_column(sources, path, span["line"], span["column"])},
        "end": {"line": span["end_line"], "column": byte_column(sources, path, span["end_line"], span["end_column"])},
    }


def _location(sources: SourceLines, path: str, span, root: Optional[str]) -> dict:
    return {"path": repo_path(path, root), "range": _range(sources, path, span)}


def format_rdjson(
    findings: Sequence[Finding],
    root: Optional[str] = None,
    sources: Optional[SourceLines] = None,
    unsafe_fixes: bool = False,
    **_,
) -> str:
    sources = sources or SourceLines()
    diagnostics = []
    for f in findings:
        message = noted_message(f)
        d = {
            "message": message,
            "location": _location(sources, f.path, vars(f), root),
            "severity": severity(f.code).upper(),
            "code": {"value": f.code, "url": rule_url(f.code)},
        }
        if f.related:
            d["related_locations"] = [{"message": r["message"], "location": _location(sources, r["path"], r, root)} for r in f.related]
        s = suggested_edit(f, unsafe_fixes)
        if s:
            d["suggestions"] = [{"range": _range(sources, f.path, s), "text": s["text"]}]
        diagnostics.append(d)
    result = {"source": {"name": "jaxlint", "url": HOMEPAGE}, "diagnostics": diagnostics}
    return json.dumps(result, indent=2, ensure_ascii=False) + "\n"
