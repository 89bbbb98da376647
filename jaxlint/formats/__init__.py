"""Output formats: pure functions from a list of findings to text.  The machine formats, and the
modules here (``rule_list``), are imported the first time they are used: a run pays only for its
own format."""

from __future__ import annotations

import importlib
import json
from typing import Callable, Dict, Sequence

from jaxlint.findings import Finding
from jaxlint.formats.text import format_concise, format_full
from jaxlint.on_demand import submodules as _submodules

__getattr__ = _submodules(__name__)


# ``text``: concise; the command line shows ``full`` instead on a terminal.
format_text = format_concise


def format_json(findings: Sequence[Finding], **_) -> str:
    return json.dumps([f.to_dict() for f in findings], indent=2, ensure_ascii=False) + "\n"


def _on_demand(module: str, function: str) -> Callable[..., str]:
    """A machine format, imported the first time it prints: a run pays only for its own."""

    def format_findings(findings: Sequence[Finding], **kw) -> str:
        return getattr(importlib.import_module(module), function)(findings, **kw)

    format_findings.__name__ = function
    return format_findings


FORMATTERS: Dict[str, Callable[..., str]] = {
    "text": format_text,
    "json": format_json,
    "full": format_full,
    "concise": format_concise,
    "github": _on_demand("jaxlint.formats.github", "format_github"),
    "gitlab": _on_demand("jaxlint.formats.gitlab", "format_gitlab"),
    "rdjson": _on_demand("jaxlint.formats.rdjson", "format_rdjson"),
    "sarif": _on_demand("jaxlint.formats.sarif", "format_sarif"),
    "junit": _on_demand("jaxlint.formats.junit", "format_junit"),
    "json-lines": _on_demand("jaxlint.formats.lines", "format_json_lines"),
    "pylint": _on_demand("jaxlint.formats.lines", "format_pylint"),
}


# Formats meant for people: coloured on a terminal.
TEXT_FORMATS = ("text", "full", "concise")
