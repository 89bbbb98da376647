"""A ``static_argnames`` entry that misspells exactly one parameter -> that parameter (JAX203).

"Clearly a misspelling": the parameter is the only one within a small edit distance (one
edit for short names, two for names of eight letters or more; a swap of neighbours counts as
one), and no other entry already names it.  Anything less clear gets no fix: renaming the
wrong parameter would make a traced argument static.
"""

from __future__ import annotations

from typing import Iterable, Optional

import libcst as cst

from jaxlint.fixes.declare import SAFE, Fix, replace


def edit_distance(a: str, b: str) -> int:
    """Damerau-Levenshtein distance (optimal string alignment)."""
    prev2 = None
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if prev2 is not None and i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


def intended_parameter(name: str, params: Iterable[str], already: Iterable[str]) -> Optional[str]:
    limit = 2 if len(name) >= 8 else 1
    close = [p for p in params if edit_distance(name, p) <= limit]
    if len(close) != 1 or close[0] in set(already):
        return None
    return close[0]


def rename_fix(node, name: str, params: Iterable[str], already: Iterable[str]) -> Optional[Fix]:
    if not isinstance(node, cst.SimpleString) or "\\" in node.value:
        return None
    target = intended_parameter(name, params, already)
    if target is None:
        return None
    new = node.prefix + node.quote + target + node.quote
    return replace(node, new, f"Rename to `{target}`", SAFE)
