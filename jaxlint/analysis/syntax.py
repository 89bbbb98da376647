"""Small questions about syntax nodes that the interpreter asks often."""

from __future__ import annotations

from typing import Optional

import libcst as cst


def is_string_literal(e) -> bool:
    if isinstance(e, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return True
    if isinstance(e, (cst.Tuple, cst.List, cst.Set)) and e.elements:
        return all(isinstance(el.value, (cst.SimpleString, cst.ConcatenatedString)) for el in e.elements)
    return False

def is_none_literal(e) -> bool:
    return isinstance(e, cst.Name) and e.value == "None"

def const_index(s: cst.SubscriptElement) -> Optional[int]:
    sl = s.slice
    if isinstance(sl, cst.Index):
        v = sl.value
        if isinstance(v, cst.Integer):
            try:
                return int(v.value, 0)
            except ValueError:
                return None
        if isinstance(v, cst.UnaryOperation) and isinstance(v.operator, cst.Minus) and isinstance(v.expression, cst.Integer):
            try:
                return -int(v.expression.value, 0)
            except ValueError:
                return None
    return None

def string_value(node) -> Optional[str]:
    try:
        v = node.evaluated_value
    except Exception:  # noqa: BLE001
        return None
    return v if isinstance(v, str) else None
