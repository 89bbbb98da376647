"""Output formats: pure functions from a list of findings to text."""

from __future__ import annotations

import json
from typing import Callable, Dict, Sequence

from jaxlint.findings import Finding


def format_text(findings: Sequence[Finding], color: bool = False, show_fix: bool = False, full: bool = False, **kw) -> str:
    """``text``: the ``full`` format on a terminal, ``concise`` elsewhere (the caller decides)."""
    from jaxlint.formats.text import format_concise, format_full

    if full:
        return format_full(findings, color=color, **kw)
    return format_concise(findings, color=color, show_fix=show_fix)


def _full(findings: Sequence[Finding], color: bool = False, **kw) -> str:
    from jaxlint.formats.text import format_full

    return format_full(findings, color=color, **kw)


def _concise(findings: Sequence[Finding], color: bool = False, show_fix: bool = False, **_) -> str:
    from jaxlint.formats.text import format_concise

    return format_concise(findings, color=color, show_fix=show_fix)


def format_json(findings: Sequence[Finding], **_) -> str:
    return json.dumps([f.to_dict() for f in findings], indent=2, ensure_ascii=False) + "\n"


FORMATTERS: Dict[str, Callable[..., str]] = {
    "text": format_text,
    "json": format_json,
    "full": _full,
    "concise": _concise,
}


# Formats meant for people: coloured on a terminal.
TEXT_FORMATS = ("text", "full", "concise")


def register(name: str, fn: Callable[..., str]) -> None:
    FORMATTERS[name] = fn



# The machine formats register themselves; imported last because they import ``register``.
from jaxlint.formats import github, gitlab, rdjson, sarif  # noqa: E402,F401
