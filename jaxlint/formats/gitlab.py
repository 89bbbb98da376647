"""GitLab Code Quality report (a JSON array of issues in the Code Climate subset GitLab reads)."""

from __future__ import annotations

import json
from typing import Optional, Sequence

from jaxlint.findings import Finding
from jaxlint.fingerprints import SourceLines, fingerprints, repo_path
from jaxlint.formats._common import rule_name, severity
from jaxlint.rules import RULES_BY_CODE
from jaxlint.rules.severity import ERROR


def gitlab_severity(code: str) -> str:
    rule = RULES_BY_CODE.get(code)
    level = severity(code)
    if rule is not None and rule.prevents.kind == "none":
        # The linter's own findings: a file it could not check at all is worse than any one
        # error in it; a note on a suppression comment or on jaxlint itself is no risk in the code.
        return "critical" if level == ERROR else "info"
    return "major" if level == ERROR else "minor"


def format_gitlab(
    findings: Sequence[Finding],
    root: Optional[str] = None,
    sources: Optional[SourceLines] = None,
    **_,
) -> str:
    prints = fingerprints(findings, root, sources)
    issues = []
    for f, fp in zip(findings, prints):
        issue = {
            "type": "issue",
            "check_name": f.code,
            "description": f"{f.code} {f.message}",
            "content": {"body": f"{rule_name(f.code)}: {f.fix}" if f.fix else rule_name(f.code)},
            "categories": ["Bug Risk"],
            "fingerprint": fp,
            "severity": gitlab_severity(f.code),
            "location": {"path": repo_path(f.path, root), "lines": {"begin": f.line, "end": f.end_line}},
        }
        if f.dynamic:
            issue["dynamic"] = f.dynamic
        if f.observed:
            issue["observed"] = f.observed
        issues.append(issue)
    return json.dumps(issues, indent=2, ensure_ascii=False) + "\n"
