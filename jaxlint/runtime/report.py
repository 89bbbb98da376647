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


def observed_findings(seen: Sequence[Seen]) -> List[Finding]:
    """What the run showed, less the errors that tests expected (``pytest.raises``) every time
    they were raised."""
    findings = []
    for s in (s for s in seen if s.count):
        rule, site = RULES_BY_CODE[s.code], s.site
        observed = {"count": s.count, "test": s.scopes[0] if s.scopes else "", "tests": len(s.scopes)}
        where = dict(path=relpath(site.path), line=site.line, column=site.column, end_line=site.end_line, end_column=site.end_column)
        findings.append(Finding(**where, code=s.code, name=rule.name, message=s.message, fix=rule.generic_fix(), observed=observed))
    return sorted(findings, key=Finding.sort_key)


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


def write_report(findings: List[Finding], fmt: str, output_file: Optional[str], baseline: Optional[str], stream: Optional[TextIO] = None) -> List[Finding]:
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
