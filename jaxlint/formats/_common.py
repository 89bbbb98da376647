"""What the machine formats share: severities, rule links, paths, the dynamic verdict."""

from __future__ import annotations

from typing import Optional

from jaxlint import rules as registry  # its names load on first use: the rules import LibCST
from jaxlint.findings import Finding
from jaxlint.rules.severity import WARNING, rule_severity

HOMEPAGE = "https://github.com/jaxlint/jaxlint"
# Every rule's --explain text, one section per rule (jaxlint/formats/rule_docs.py writes it).
RULES_DOC = "docs/rules.md"


def severity(code: str) -> str:
    """``error`` or ``warning``, from what the code's rule prevents (jaxlint/rules/severity.py)."""
    rule = registry.RULES_BY_CODE.get(code)
    return rule_severity(rule) if rule is not None else WARNING


def anchor(code: str) -> str:
    """The anchor of a rule's section in the rules document: its heading is the code."""
    return code.lower()


def rule_url(code: str) -> str:
    """The rule's own section of the rules document, on the repository's main branch."""
    return f"{HOMEPAGE}/blob/main/{RULES_DOC}#{anchor(code)}"


def rule_name(code: str) -> str:
    rule = registry.RULES_BY_CODE.get(code)
    return rule.name if rule is not None else code


def observed_phrase(observed: dict) -> str:
    """``observed 3 times in test_step`` (and how many other tests), for a finding a run of
    the user's code showed (jaxlint.runtime)."""
    count, where, tests = observed.get("count", 1), observed.get("test", ""), observed.get("tests", 1)
    times = "once" if count == 1 else f"{count} times"
    others = f" and {tests - 1} more" if tests > 1 else ""
    return f"observed {times} in {where}{others}" if where else f"observed {times}"


def noted_message(f: Finding) -> str:
    """The message, with the dynamic verdict and what a run observed as a short note, for
    formats that carry only text."""
    notes = []
    d = f.dynamic
    if d:
        status = d.get("status", "")
        detail = d.get("detail")
        notes.append(f"dynamic check: {status}: {detail}" if detail else f"dynamic check: {status}")
    if f.observed:
        notes.append(observed_phrase(f.observed))
    return f"{f.message} [{'; '.join(notes)}]" if notes else f.message


def offered_edits(f: Finding, unsafe_fixes: bool = False) -> Optional[list]:
    """The edits of ``f``'s fix that a review bot may offer as a one-click change: a safe fix,
    or an unsafe one only when the user asked for them (``--unsafe-fixes``).  A rule's
    suggestion without a fix is advice, not an edit to apply."""
    fix = f.autofix
    if not fix or not fix.get("edits"):
        return None
    if fix.get("safety") != "safe" and not unsafe_fixes:
        return None
    return [dict(e) for e in fix["edits"]]


def suggested_edit(f: Finding, unsafe_fixes: bool = False) -> Optional[dict]:
    """The one edit a format that carries a single replacement can offer (a fix that also adds
    an import cannot be one suggestion)."""
    edits = offered_edits(f, unsafe_fixes)
    if edits is None or len(edits) != 1:
        return None
    return edits[0]
