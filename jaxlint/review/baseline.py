"""``--write-baseline FILE`` / ``--baseline FILE``: adopt jaxlint on a codebase with known findings.

The baseline records each finding's fingerprint (:mod:`jaxlint.fingerprints`, the same one SARIF
uses), which does not depend on line numbers, so unrelated edits that move code leave it valid.
With ``--baseline`` only findings whose fingerprint is not recorded are reported.  Code, path and
message are stored next to each fingerprint for people reading the file; only the fingerprint
is matched.
"""

from __future__ import annotations

import json
import sys
from typing import List, Optional, Sequence, TextIO

from jaxlint.atomic import write_bytes
from jaxlint.config import ConfigError
from jaxlint.findings import Finding
from jaxlint.fingerprints import VERSION, SourceLines, fingerprints, repo_path

FORMAT = 1


class BaselineError(ConfigError):
    """The baseline file is missing, unreadable or unwritable: exit 2."""


def write(path: str, findings: Sequence[Finding], root: Optional[str] = None, sources: Optional[SourceLines] = None) -> int:
    prints = fingerprints(findings, root, sources)
    entries = sorted(
        (
            {"fingerprint": fp, "code": f.code, "path": repo_path(f.path, root), "message": f.message}
            for f, fp in zip(findings, prints)
        ),
        key=lambda e: (e["path"], e["code"], e["fingerprint"]),
    )
    data = {"jaxlint-baseline": FORMAT, "fingerprint": VERSION, "findings": entries}
    try:
        write_bytes(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8", "surrogatepass"))
    except OSError as e:
        raise BaselineError(f"cannot write baseline {path}: {e.strerror or e}") from None
    return len(entries)


def load(path: str) -> frozenset:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        raise BaselineError(f"baseline file not found: {path} (create it with --write-baseline)") from None
    except (OSError, ValueError) as e:
        raise BaselineError(f"cannot read baseline {path}: {e}") from None
    if not isinstance(data, dict) or data.get("jaxlint-baseline") != FORMAT or not isinstance(data.get("findings"), list):
        raise BaselineError(f"{path} is not a jaxlint baseline file")
    if data.get("fingerprint") != VERSION:
        raise BaselineError(
            f"{path} was written with fingerprint {data.get('fingerprint')!r}; this jaxlint uses {VERSION!r}: "
            "write it again with --write-baseline"
        )
    try:
        return frozenset(e["fingerprint"] for e in data["findings"])
    except (TypeError, KeyError):
        raise BaselineError(f"{path} is not a jaxlint baseline file") from None


def filter_new(
    findings: Sequence[Finding], known: frozenset, root: Optional[str] = None, sources: Optional[SourceLines] = None
) -> List[Finding]:
    prints = fingerprints(findings, root, sources)
    return [f for f, fp in zip(findings, prints) if fp not in known]


def apply(
    findings: List[Finding], baseline_path: Optional[str] = None, write_path: Optional[str] = None, log: Optional[TextIO] = None
) -> List[Finding]:
    """``write_path`` (--write-baseline) records the findings, which are then baselined: none is
    reported, and a line saying so goes to ``log`` (standard error by default);
    ``baseline_path`` (--baseline) drops the recorded ones."""
    out = findings
    sources = SourceLines()
    if write_path:
        n = write(write_path, out, sources=sources)
        print(f"jaxlint: wrote {n} finding{'s' if n != 1 else ''} to baseline {write_path}", file=log or sys.stderr)
        out = []
    if baseline_path:
        out = filter_new(out, load(baseline_path), sources=sources)
    return out
