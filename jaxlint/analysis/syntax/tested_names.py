"""The names a function looks at in its conditions."""

from __future__ import annotations

from typing import Set

import libcst as cst

from jaxlint.analysis.syntax.fast_walk import FastVisitor, names_in
from jaxlint.analysis.syntax.scopes import FuncInfo


class _TestedNames(FastVisitor):
    """Names read in the conditions of a function's ``if``/``while``/ternaries and asserts."""

    def __init__(self):
        self.names: Set[str] = set()

    def _tested(self, node) -> None:
        self.names |= names_in(node.subject if isinstance(node, cst.Match) else node.test)

    visit_If = visit_While = visit_IfExp = visit_Assert = visit_Match = _tested


def tested_names(f: FuncInfo) -> Set[str]:
    v = _TestedNames()
    v.walk(f.node.body)
    return v.names
