"""How often each rule was right on code it had never seen: the non-migration findings on the
libraries of the world corpus's test half (``benchmarks/realworld.py --world CORPUS --split
test``), each given a verdict by reading the library's code.  A finding is right when it is a
true bug or the flagged pattern written on purpose; it is wrong when the analysis was mistaken.

A rule is on by default only when at least ``PRECISION_BAR`` of its findings there were right
(or it had none), and it flagged none of the fixed files of the bug reports' test half (each
ran under JAX without the bug: ``--reports --split test``); else it is in preview until it
earns its default (``tests/unit/test_registry.py`` holds the rules to this table).
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple

PRECISION_BAR = 0.9
# What the figures were measured on.
CORPUS = "the 105 libraries of the world corpus's test half"
# code -> (findings that were right, findings reviewed)
MEASURED: Dict[str, Tuple[int, int]] = {
    "JAX101": (3, 3),
    "JAX104": (3, 8),
    "JAX107": (0, 2),
    "JAX108": (0, 1),
    "JAX202": (0, 1),
    "JAX203": (1, 1),
    "JAX204": (1, 1),
    "JAX206": (6, 6),
    "JAX301": (0, 5),
    "JAX302": (2, 2),
    "JAX303": (2, 3),
    "JAX304": (1, 1),
    "JAX306": (2, 2),
    "JAX307": (0, 1),
    "JAX309": (0, 2),
    "JAX401": (9, 9),
    "JAX403": (4, 11),
    "JAX501": (1, 6),
}

# code -> how many fixed files of the reports' test half it flagged (out of NEGATIVES)
NEGATIVES = 100
FLAGGED_NEGATIVES: Dict[str, int] = {
    "JAX104": 1,
    "JAX303": 1,
    "JAX309": 1,
    "JAX401": 1,
}


def precision(code: str) -> Optional[float]:
    right, reviewed = MEASURED.get(code, (0, 0))
    return right / reviewed if reviewed else None


def below_bar(code: str) -> bool:
    """The rule was wrong too often on unseen code to be on by default."""
    p = precision(code)
    return p is not None and p < PRECISION_BAR or code in FLAGGED_NEGATIVES


def describe(code: str) -> str:
    """One line for the rule's documentation."""
    if not CORPUS:
        return ""
    right, reviewed = MEASURED.get(code, (0, 0))
    if not reviewed:
        line = f"Measured: no finding on {CORPUS}"
    else:
        line = f"Measured: {right} of {reviewed} findings right ({100 * right / reviewed:.0f}%) on {CORPUS}"
    flagged = FLAGGED_NEGATIVES.get(code, 0)
    if flagged:
        line += f"; it flagged {flagged} of the {NEGATIVES} fixed files of the bug reports' test half"
    return line + "."
