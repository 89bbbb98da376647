"""The names a function looks at in its conditions."""

from __future__ import annotations

from typing import Set

import libcst as cst

from jaxlint.analysis.syntax.fast_walk import FastVisitor
from jaxlint.analysis.syntax.scopes import FuncInfo


class _TestedNames(FastVisitor):
    """Names read in the conditions of a function's ``if``/``while``/ternaries and asserts."""

    def __init__(self):
        self.names: Set[str] = set()

    def _tested(self, node) -> None:
        _NameCollector(self.names).walk(node.subject if isinstance(node, cst.Match) else node.test)

    visit_If = visit_While = visit_IfExp = visit_Assert = visit_Match = _tested


class _NameCollector(FastVisitor):
    def __init__(self, out: Set[str]):
        self.out = out

    def visit_Name(self, node: cst.Name) -> None:
        self.out.add(node.value)


def tested_names(f: FuncInfo) -> Set[str]:
    v = _TestedNames()
    v.walk(f.node.body)
    return v.names
