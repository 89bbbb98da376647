"""Text edits given as 1-based line/column spans (as findings carry them), applied to a source."""

from __future__ import annotations

from typing import Dict, List, Sequence, Tuple

from jaxlint.source_text import LineIndex

def _key(edit: Dict):
    return (edit["line"], edit["column"], edit["end_line"], edit["end_column"], edit["text"])


def choose(fixes: Sequence[Dict], text: str) -> List[Dict]:
    """The fixes (in order) whose edits overlap no edit of a fix chosen before them.  An edit
    identical to one already chosen (two fixes adding the same import) is shared, not a clash."""
    index = LineIndex(text)
    taken: List[Tuple[int, int]] = []
    shared = set()
    chosen = []
    for fix in fixes:
        spans = []
        ok = True
        for e in fix["edits"]:
            if _key(e) in shared:
                continue
            a, b = index.span(e)
            if any(a < tb and ta < b or (a == b and ta < a < tb) or (ta == tb and a < ta < b) or (a == b == ta == tb) for ta, tb in taken):
                ok = False
                break
            spans.append((a, b, e))
        if not ok:
            continue
        for a, b, e in spans:
            taken.append((a, b))
            shared.add(_key(e))
        chosen.append(fix)
    return chosen


def apply(fixes: Sequence[Dict], text: str) -> str:
    """``text`` with every edit of ``fixes`` applied (they must not overlap; see :func:`choose`)."""
    index = LineIndex(text)
    edits = {}
    for fix in fixes:
        for e in fix["edits"]:
            edits[_key(e)] = index.span(e) + (e["text"],)
    out = text
    # From the end, so earlier offsets stay valid; insertions at one point keep their order.
    for a, b, new in sorted(edits.values(), key=lambda t: (t[0], t[1]), reverse=True):
        out = out[:a] + new + out[b:]
    return out
