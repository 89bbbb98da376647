"""Facts about the module's call expressions that rules ask for more than once."""

from __future__ import annotations

from typing import FrozenSet, Set

import libcst as cst

from jaxlint.analysis.syntax.module_index import ModuleIndex


class CallSites:
    def __init__(self, index: ModuleIndex):
        self._index = index
        self._callees = frozenset(id(c.func) for c, _s, _o in index.calls)
        self._called_in_loops: "FrozenSet[str] | None" = None

    def is_called_at_once(self, expr: cst.BaseExpression) -> bool:
        """``expr(...)``: the expression is itself called, right where it is built."""
        return id(expr) in self._callees

    def names_called_in_loops(self) -> FrozenSet[str]:
        """Names (or attribute names) of every callee called inside a loop of the module."""
        if self._called_in_loops is None:
            out: Set[str] = set()
            for c, s, o in self._index.calls:
                if isinstance(c.func, (cst.Name, cst.Attribute)) and any(a <= o <= b for a, b in s.loops):
                    f = c.func
                    out.add(f.value if isinstance(f, cst.Name) else f.attr.value)
            self._called_in_loops = frozenset(out)
        return self._called_in_loops
