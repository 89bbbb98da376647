"""What the machine formats share: severities, rule links, paths, the dynamic verdict."""

from __future__ import annotations

from typing import Optional

from jaxlint.findings import Finding
from jaxlint.rules import RULES_BY_CODE

HOMEPAGE = "https://github.com/jaxlint/jaxlint"


def severity(code: str) -> str:
    """``error`` for code that fails when JAX traces it (JAX1xx, JAX2xx) or cannot be parsed
    (JAX001); ``warning`` for code that runs but silently misbehaves (JAX3xx frozen values,
    JAX4xx recompilation) and for jaxlint's own internal errors (JAX002)."""
    if code == "JAX001" or code.startswith(("JAX1", "JAX2")):
        return "error"
    return "warning"


def rule_url(code: str) -> str:
    return f"{HOMEPAGE}#what-it-finds"


def rule_name(code: str) -> str:
    rule = RULES_BY_CODE.get(code)
    return rule.name if rule is not None else code


def dynamic_note(f: Finding) -> Optional[str]:
    """The dynamic verdict as a short phrase, for formats that carry only text."""
    d = f.dynamic
    if not d:
        return None
    status = d.get("status", "")
    detail = d.get("detail")
    return f"dynamic check: {status}: {detail}" if detail else f"dynamic check: {status}"


def suggested_edit(f: Finding) -> Optional[dict]:
    """The exact replacement a review bot can offer: the rule's suggestion, else its fix when
    that is safe and a single edit (a fix that also adds an import cannot be one suggestion)."""
    if f.suggestion:
        return f.suggestion
    fix = f.autofix
    if fix and fix.get("safety") == "safe" and len(fix.get("edits", ())) == 1:
        return fix["edits"][0]
    return None
