"""How many times each variable of a module is written as a name."""

from __future__ import annotations

from typing import Dict, Tuple

import libcst as cst

from jaxlint.analysis.syntax.fast_walk import FastVisitor
from jaxlint.analysis.syntax.module_index import ModuleIndex


class NameMentions(FastVisitor):
    """How many times each variable is written as a name, its definition, its calls and any
    other use: (id of the scope that owns it, name) -> count.  Attribute names (``obj.run``)
    are no variable's (they are counted apart, under ``(0, "." + attr)``)."""

    def __init__(self, index: ModuleIndex, out: Dict[Tuple[int, str], int]):
        self.index = index
        self.out = out
        self.scope = index.module_scope

    def _count(self, name: str) -> None:
        owner = self.scope.lookup_scope(name)
        key = (id(owner), name)
        self.out[key] = self.out.get(key, 0) + 1

    def visit_Name(self, node: cst.Name) -> None:
        self._count(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        # an attribute name is no variable's: counted under no scope, to tell whether every
        # use of a method's name is a call of it
        key = (0, "." + node.attr.value)
        self.out[key] = self.out.get(key, 0) + 1
        self.walk(node.value)
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self._count(node.name.value)
        for d in node.decorators:
            self.walk(d)
        info = self.index.func_by_node.get(id(node))
        outer = self.scope
        if info is not None and info.body_scope is not None:
            self.scope = info.body_scope
        self.walk(node.params)
        self.walk(node.body)
        self.scope = outer
        return False
