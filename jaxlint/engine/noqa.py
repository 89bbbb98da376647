"""``# noqa`` comments in the pipeline: their own findings (JAX003/JAX004), then the
suppressions (how comments are read: jaxlint.noqa, shared with flake8's reading)."""

from __future__ import annotations

from typing import List

from jaxlint import noqa as noqa_comments
from jaxlint.findings import Finding


def apply_directives(findings: List[Finding], text: str, path: str, enabled, suppress: bool) -> List[Finding]:
    """Unless flake8 applies the suppressions itself (``suppress=False``), apply them."""
    directives = noqa_comments.scan(text)
    if directives is None:
        return findings
    if directives.skip_file:
        return []  # flake8 skips such a file before any plugin runs, and so does jaxlint
    extra = noqa_comments.directive_findings(findings, path, directives, enabled)
    if extra:
        findings = sorted(findings + extra, key=Finding.sort_key)
    if suppress:
        return noqa_comments.suppress(findings, text, directives)
    if directives.file_codes:  # flake8 knows nothing of `# jaxlint: noqa: CODES`
        return [f for f in findings if not f.code.startswith(directives.file_codes)]
    return findings
