"""Output formats: pure functions from a list of findings to text."""

from __future__ import annotations

import json
from typing import Callable, Dict, Sequence

from jaxlint.findings import Finding


def _dynamic_suffix(f: Finding) -> str:
    d = f.dynamic
    if not d:
        return ""
    status = d.get("status", "")
    detail = d.get("detail")
    return f" [{status}: {detail}]" if detail and status != "confirmed" else f" [{status}]"


def format_text(findings: Sequence[Finding], color: bool = False, show_fix: bool = False) -> str:
    lines = []
    for f in findings:
        if color:
            loc = f"\x1b[1m{f.path}\x1b[0m\x1b[36m:\x1b[0m{f.line}\x1b[36m:\x1b[0m{f.column}\x1b[36m:\x1b[0m"
            code = f"\x1b[1;31m{f.code}\x1b[0m"
            lines.append(f"{loc} {code} {f.message}{_dynamic_suffix(f)}")
        else:
            lines.append(f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}{_dynamic_suffix(f)}")
        if show_fix and f.fix:
            lines.append(f"    help: {f.fix}")
    return "\n".join(lines) + ("\n" if lines else "")


def format_json(findings: Sequence[Finding], **_) -> str:
    return json.dumps([f.to_dict() for f in findings], indent=2, ensure_ascii=False) + "\n"


FORMATTERS: Dict[str, Callable[..., str]] = {
    "text": format_text,
    "json": format_json,
}


def register(name: str, fn: Callable[..., str]) -> None:
    FORMATTERS[name] = fn



# The machine formats register themselves; imported last because they import ``register``.
from jaxlint.formats import github, gitlab, rdjson, sarif  # noqa: E402,F401
