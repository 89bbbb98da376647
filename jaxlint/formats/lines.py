"""Line formats in ruff's shapes: ``json-lines`` (one JSON object a line, the objects of
``json``) and ``pylint`` (``path:line: [CODE] message``, what pylint-reading tools parse)."""

from __future__ import annotations

import json
from typing import Sequence

from jaxlint.findings import Finding


def format_json_lines(findings: Sequence[Finding], **_) -> str:
    return "".join(json.dumps(f.to_dict(), ensure_ascii=False) + "\n" for f in findings)


def format_pylint(findings: Sequence[Finding], **_) -> str:
    return "".join(f"{f.path}:{f.line}: [{f.code}] {f.message}\n" for f in findings)
