"""A read-only walk that knows which scope of the module index each node is in."""

from __future__ import annotations

from typing import Dict

import libcst as cst

from jaxlint.analysis.syntax.fast_walk import FastVisitor
from jaxlint.analysis.syntax.module_index import ModuleIndex
from jaxlint.analysis.syntax.scopes import Scope


class ScopedVisitor(FastVisitor):
    """``FastVisitor`` with ``self.scope``: the index's scope of the code being visited.

    Decorators, defaults, annotations and base classes belong to the enclosing scope; a
    function's body to its own.  Lambdas and comprehensions share their enclosing scope, as in
    the index."""

    def __init__(self, index: ModuleIndex):
        self.index = index
        self.scope: Scope = index.module_scope
        self._class_scopes: Dict[int, Scope] = {id(c.node): c.body_scope for c in index.classes}

    def run(self) -> None:
        self.walk(self.index.module_scope.node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        for d in node.decorators:
            self.walk(d.decorator)
        self.walk(node.params)
        if node.returns is not None:
            self.walk(node.returns)
        info = self.index.func_by_node.get(id(node))
        outer = self.scope
        if info is not None and info.body_scope is not None:
            self.scope = info.body_scope
        self.walk(node.body)
        self.scope = outer
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        for d in node.decorators:
            self.walk(d.decorator)
        for a in node.bases:
            self.walk(a)
        for k in node.keywords:
            self.walk(k)
        outer = self.scope
        self.scope = self._class_scopes.get(id(node), outer)
        self.walk(node.body)
        self.scope = outer
        return False
