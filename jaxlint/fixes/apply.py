"""Apply the fixes of a source's findings until nothing changes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, List, Optional, Tuple

from jaxlint.findings import Finding
from jaxlint.fixes import edits
from jaxlint.fixes.declare import SAFE

# Each round re-lints the fixed text: a fix can reveal or settle another finding.  Real fixes
# settle in one or two rounds; the bound stops a pair of fixes that would undo each other.
MAX_ROUNDS = 4


@dataclass
class FixResult:
    source: str
    fixed: List[Finding] = field(default_factory=list)  # findings whose fix was applied
    remaining: List[Finding] = field(default_factory=list)  # findings of the final source
    refused: Optional[str] = None  # why the last round's fixes were not kept

    def unsafe_available(self) -> int:
        """Remaining findings an unsafe fix could handle."""
        return sum(1 for f in self.remaining if f.autofix and f.autofix["safety"] != SAFE and f.autofix["edits"])

    def safe_available(self) -> int:
        return sum(1 for f in self.remaining if applicable(f, unsafe=False))


def applicable(f: Finding, unsafe: bool) -> bool:
    return f.fixable(unsafe)


def parse_error(source: str) -> Optional[str]:
    """Why ``source`` is not a Python module any more, or None."""
    import libcst as cst

    try:
        compile(source, "<fixed>", "exec", dont_inherit=True, flags=0x400)  # ast.PyCF_ONLY_AST
        cst.parse_module(source)
    except SyntaxError as e:
        return f"syntax error: {e.msg} (line {e.lineno})"
    except cst.ParserSyntaxError as e:
        return f"syntax error: {e.message} (line {e.raw_line})"
    except Exception as e:  # noqa: BLE001 - any failure to parse means: do not write it
        return f"{type(e).__name__}: {e}"
    return None


def apply_round(candidates: List[Finding], text: str) -> Tuple[str, List[Finding], Optional[str]]:
    """One round of fixes on ``text``: those of ``candidates`` whose edits do not overlap, taken
    in source order.  Returns the new text, the findings it fixed, and why the new text is
    refused (it does not parse), or None."""
    candidates = sorted(candidates, key=lambda f: (f.line, f.column, f.code))
    chosen = edits.choose([f.autofix for f in candidates], text)
    by_id = {id(f.autofix): f for f in candidates}
    new = edits.apply(chosen, text)
    error = parse_error(new) if new != text else None
    return new, [by_id[id(c)] for c in chosen], error


def fix_source(source: str, lint: Callable[[str], List[Finding]], unsafe: bool = False, only=None) -> FixResult:
    """Fix ``source`` with the findings ``lint(text)`` gives.  Fixes that touch the same text
    are applied one per round; a round whose result does not parse is dropped (the source of
    the round before is kept and the reason reported).

    ``only``: a predicate on findings, to fix a subset (one finding's code action)."""
    result = FixResult(source)
    text = source
    findings = lint(text)
    for _ in range(MAX_ROUNDS):
        candidates = [f for f in findings if applicable(f, unsafe) and (only is None or only(f))]
        if not candidates:
            break
        new, fixed, error = apply_round(candidates, text)
        if new == text:
            break
        if error is not None:
            result.refused = error
            break
        result.fixed.extend(fixed)
        text = new
        findings = lint(text)
        if only is not None:
            break  # one finding's fix: a single round
    result.source = text
    result.remaining = findings
    return result
