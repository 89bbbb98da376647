"""What a run observed, as findings: the same codes, messages and fixes as the static rules,
merged with the static analysis of the same files, and written in any output format."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from typing import Dict, List, Optional, Sequence, TextIO, Tuple

from jaxlint.config import Config
from jaxlint.engine.run import lint_files
from jaxlint.findings import Finding
from jaxlint.formats import FORMATTERS
from jaxlint.paths import relpath
from jaxlint.review import baseline as baselines
from jaxlint.rules import RULES_BY_CODE
from jaxlint.runtime.observer import Seen


def observed_findings(seen: Sequence[Seen]) -> Tuple[List[Finding], List[Finding]]:
    """(findings, expected): what the run showed, and the errors that tests expected
    (``pytest.raises``) every time they were raised."""
    findings, expected = [], []
    for s in seen:
        rule = RULES_BY_CODE[s.code]
        observed = {"count": s.count or s.expected, "test": s.scopes[0] if s.scopes else "", "tests": len(s.scopes)}
        f = Finding(
            path=relpath(s.site.path),
            line=s.site.line,
            column=s.site.column,
            end_line=s.site.end_line,
            end_column=s.site.end_column,
            code=s.code,
            name=rule.name,
            message=s.message,
            fix=rule.generic_fix(),
            observed=observed,
        )
        (findings if s.count else expected).append(f)
    return sorted(findings, key=Finding.sort_key), sorted(expected, key=Finding.sort_key)


def merge_static(findings: List[Finding]) -> List[Finding]:
    """Each observed finding that the static analysis also reports (same file, line and code)
    becomes the static finding, with what the run observed: the static message names the
    variable, and its fix may be an edit.  Every rule runs, preview ones too."""
    if not findings:
        return findings
    files = sorted({f.path for f in findings if os.path.isfile(f.path)})
    static: Dict[Tuple[str, int, str], Finding] = {}
    for s in lint_files(files, Config(preview=True), jobs=1, cache_dir=None).findings:
        static.setdefault((s.path, s.line, s.code), s)
    out = []
    for f in findings:
        twin = static.get((f.path, f.line, f.code))
        out.append(replace(twin, observed=f.observed) if twin is not None else f)
    return sorted(out, key=Finding.sort_key)


def write_report(
    findings: List[Finding],
    fmt: str = "text",
    output_file: Optional[str] = None,
    baseline: Optional[str] = None,
    stream: Optional[TextIO] = None,
) -> List[Finding]:
    """Writes ``findings`` (less those in ``baseline``) in format ``fmt``; returns what was
    written."""
    if baseline:
        findings = baselines.apply(findings, baseline)
    text = FORMATTERS[fmt](findings)
    if output_file:
        with open(output_file, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        (stream or sys.stdout).write(text)
    return findings
