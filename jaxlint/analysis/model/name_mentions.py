"""Where each variable and attribute name of a module is written, read in one walk.

Variables: how many times each is written as a name, its definition, its calls and any other
use: (id of the scope that owns it, name) -> count.  Attribute names (``obj.run``) are no
variable's: every mention of one is counted apart, under ``(0, "." + attr)``, to tell whether
every use of a method's name is a call of it.  Each read of an attribute name (a store
``obj.attr = v`` is none) is also listed with the ``def`` whose code holds it (a lambda's code
counts as its enclosing ``def``'s; module or class level: None): ``self.scratch`` read by a
method, ``self._render`` handed to ``lax.switch``."""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.syntax.fast_walk import FastVisitor
from jaxlint.analysis.syntax.module_index import ModuleIndex

Mention = Tuple[cst.Attribute, Optional[cst.FunctionDef]]


class _Mentions(FastVisitor):
    def __init__(self, index: ModuleIndex):
        self.index = index
        self.scope = index.module_scope
        self.names: Dict[Tuple[int, str], int] = {}
        self.attributes: Dict[str, List[Mention]] = {}
        self._def: Optional[cst.FunctionDef] = None
        self._stores: set = set()
        self._counting = True  # off in a def's annotations, whose names are counted nowhere

    def _count(self, key: Tuple[int, str]) -> None:
        if self._counting:
            self.names[key] = self.names.get(key, 0) + 1

    def visit_Name(self, node: cst.Name) -> None:
        self._count((id(self.scope.lookup_scope(node.value)), node.value))

    def _store(self, target) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self._store(el.value)
        elif isinstance(target, cst.Attribute):
            self._stores.add(id(target))

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._store(t.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._store(node.target)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        self._count((0, "." + node.attr.value))
        if id(node) not in self._stores:
            self.attributes.setdefault(node.attr.value, []).append((node, self._def))
        self.walk(node.value)
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self._count((id(self.scope.lookup_scope(node.name.value)), node.name.value))
        outer_def, self._def = self._def, node
        for d in node.decorators:
            self.walk(d)
        info = self.index.func_by_node.get(id(node))
        outer = self.scope
        if info is not None and info.body_scope is not None:
            self.scope = info.body_scope
        self.walk(node.params)
        self.walk(node.body)
        self.scope = outer
        counting, self._counting = self._counting, False
        for annotation in (node.type_parameters, node.returns):
            if annotation is not None:
                self.walk(annotation)
        self._counting = counting
        self._def = outer_def
        return False


def module_mentions(index: ModuleIndex) -> Tuple[Dict[Tuple[int, str], int], Dict[str, List[Mention]]]:
    """The module's (name counts, attribute reads), computed once and kept on the index."""
    found = index.__dict__.get("_mentions")
    if found is None:
        walker = _Mentions(index)
        walker.walk(index.module_scope.node)
        found = index.__dict__["_mentions"] = (walker.names, walker.attributes)
    return found
