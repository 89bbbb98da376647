"""Facts about the module's call expressions that rules ask for more than once."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.syntax.module_index import ModuleIndex


class CallSites:
    def __init__(self, index: ModuleIndex):
        self._index = index
        self._callees = frozenset(id(c.func) for c, _s, _o in index.calls)

    def is_called_at_once(self, expr: cst.BaseExpression) -> bool:
        """``expr(...)``: the expression is itself called, right where it is built."""
        return id(expr) in self._callees
