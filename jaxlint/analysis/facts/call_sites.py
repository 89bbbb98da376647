"""Where the module's calls are: the one index from a call (or its callee expression) to its
place, for the rules and facts that ask about a call they hold."""

from __future__ import annotations

from typing import Dict, Optional, Tuple

import libcst as cst

from jaxlint.analysis.syntax.module_index import ModuleIndex
from jaxlint.analysis.syntax.scopes import Scope


class CallSites:
    def __init__(self, index: ModuleIndex):
        self.sites: Dict[int, Tuple[Scope, int]] = {id(c): (s, o) for c, s, o in index.calls}
        self._by_callee = {id(c.func): c for c, _s, _o in index.calls}

    def is_called_at_once(self, expr: cst.BaseExpression) -> bool:
        """``expr(...)``: the expression is itself called, right where it is built."""
        return id(expr) in self._by_callee

    def call_of(self, callee: cst.BaseExpression) -> Optional[cst.Call]:
        """The call whose callee is ``callee``."""
        return self._by_callee.get(id(callee))

    def order(self, call: cst.Call) -> Optional[int]:
        """The order of ``call`` in its scope (None for a call the index does not hold)."""
        site = self.sites.get(id(call))
        return site[1] if site is not None else None
