"""GitHub Actions workflow commands: one ``::error`` / ``::warning`` annotation per finding."""

from __future__ import annotations

from typing import Optional, Sequence

from jaxlint.findings import Finding
from jaxlint.fingerprints import repo_path
from jaxlint.formats._common import noted_message, rule_name, severity


def escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def format_github(findings: Sequence[Finding], root: Optional[str] = None, **_) -> str:
    out = []
    for f in findings:
        # GitHub's endColumn is inclusive; a finding's end_column is exclusive.
        end_col = f.end_column - 1 if f.end_line != f.line or f.end_column > f.column else f.column
        props = ",".join(
            (
                f"file={escape_property(repo_path(f.path, root))}",
                f"line={f.line}",
                f"col={f.column}",
                f"endLine={f.end_line}",
                f"endColumn={max(1, end_col)}",
                f"title={escape_property(f'{f.code} {rule_name(f.code)}')}",
            )
        )
        message = noted_message(f)
        if f.fix:
            message += "\n" + f.fix
        out.append(f"::{severity(f.code)} {props}::{escape_data(message)}\n")
    return "".join(out)
