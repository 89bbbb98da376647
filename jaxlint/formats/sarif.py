"""SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.

Paths are relative to the repository root (``uriBaseId: SRCROOT``); columns count Unicode code
points (``columnKind``), as jaxlint does.  ``partialFingerprints`` come from
:mod:`jaxlint.fingerprints`, so moving code up or down does not re-open an alert."""

from __future__ import annotations

import json
from typing import Optional, Sequence
from urllib.parse import quote

from jaxlint.versions import __version__
from jaxlint.findings import Finding
from jaxlint.fingerprints import VERSION, SourceLines, fingerprints, repo_path
from jaxlint.formats._common import HOMEPAGE, offered_edits, rule_url, severity
from jaxlint.formats.rule_docs import rule_section
from jaxlint.rules import ALL_RULES

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
FINGERPRINT_KEY = f"jaxlint/{VERSION}"


def sarif_rules() -> list:
    out = []
    for rule in ALL_RULES:
        out.append(
            {
                "id": rule.code,
                "name": rule.name,
                "shortDescription": {"text": rule.summary()},
                "fullDescription": {"text": rule.docs()},
                # The text of `jaxlint --explain`, and its section of the rules document.
                "help": {"text": rule.explain(), "markdown": rule_section(rule)},
                "helpUri": rule_url(rule.code),
                "defaultConfiguration": {"level": severity(rule.code), "enabled": bool(rule.default_enabled)},
                "properties": {"tags": ["jax", "correctness"]},
            }
        )
    return out


def artifact_uri(path: str) -> str:
    """A relative URI reference: percent-encoded as RFC 3986 requires (viewers decode it)."""
    return quote(path, safe="/")


def _region(span) -> dict:
    """The region of ``span``: a finding's fields, an edit or a related location."""
    return {"startLine": span["line"], "startColumn": span["column"], "endLine": span["end_line"], "endColumn": span["end_column"]}


def _artifact(path: str, root: Optional[str]) -> dict:
    return {"uri": artifact_uri(repo_path(path, root)), "uriBaseId": "SRCROOT"}


def format_sarif(
    findings: Sequence[Finding],
    root: Optional[str] = None,
    sources: Optional[SourceLines] = None,
    unsafe_fixes: bool = False,
    **_,
) -> str:
    """``fixes`` carry safe fixes only; unsafe ones only with ``unsafe_fixes`` (--unsafe-fixes)."""
    rules = sarif_rules()
    index = {r["id"]: i for i, r in enumerate(rules)}
    prints = fingerprints(findings, root, sources)
    results = []
    for f, fp in zip(findings, prints):
        result = {
            "ruleId": f.code,
            "level": severity(f.code),
            "message": {"text": f.message},
            "locations": [{"physicalLocation": {"artifactLocation": _artifact(f.path, root), "region": _region(vars(f))}}],
            "partialFingerprints": {FINGERPRINT_KEY: fp},
        }
        if f.code in index:
            result["ruleIndex"] = index[f.code]
        if f.related:
            result["relatedLocations"] = [
                {"id": i, "physicalLocation": {"artifactLocation": _artifact(r["path"], root), "region": _region(r)}, "message": {"text": r["message"]}}
                for i, r in enumerate(f.related)
            ]
        edits = offered_edits(f, unsafe_fixes)
        if edits:
            result["fixes"] = [
                {
                    "description": {"text": f.autofix.get("title") or f.fix or "replace"},
                    "artifactChanges": [
                        {
                            "artifactLocation": _artifact(f.path, root),
                            "replacements": [{"deletedRegion": _region(s), "insertedContent": {"text": s["text"]}} for s in edits],
                        }
                    ],
                }
            ]
        props = {}
        if f.fix:
            props["fix"] = f.fix
        if f.dynamic:
            props["dynamic"] = f.dynamic
        if f.observed:
            props["observed"] = f.observed
        if props:
            result["properties"] = props
        results.append(result)
    log = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "jaxlint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": HOMEPAGE,
                        "rules": rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"
