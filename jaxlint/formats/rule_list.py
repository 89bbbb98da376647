"""``--list-rules``: the catalogue as a table wrapped to the terminal, or as JSON."""

from __future__ import annotations

import json
import shutil
import textwrap
from typing import Optional

from jaxlint.formats._common import severity
from jaxlint.rules import ALL_RULES


def rule_table(width: Optional[int] = None) -> str:
    width = width or shutil.get_terminal_size((100, 24)).columns
    rules = ALL_RULES
    name_width = max(len(r.name) for r in rules)
    indent = len(rules[0].code) + 2 + name_width + 2
    out = []
    for r in rules:
        summary = r.plain_summary() + ("" if r.default_enabled else " (off by default)") + (" (preview)" if r.status == "preview" else "")
        lines = textwrap.wrap(summary, max(20, width - indent)) or [""]
        out.append(f"{r.code}  {r.name:<{name_width}}  {lines[0]}")
        out.extend(" " * indent + line for line in lines[1:])
    return "\n".join(out) + "\n"


def rule_json() -> str:
    rows = [
        {
            "code": r.code,
            "name": r.name,
            "summary": r.plain_summary(),
            "severity": severity(r.code),
            "default_enabled": bool(r.default_enabled),
            "status": r.status,
            "fix": r.generic_fix(),
            "prevents": r.prevents.description,
        }
        for r in ALL_RULES
    ]
    return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
