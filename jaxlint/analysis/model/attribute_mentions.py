"""Where each attribute name is written in a module, and which function's code holds it.

``self.scratch`` read by a method, ``self._render`` handed to ``lax.switch``: every mention of
``.scratch`` or ``._render`` as an attribute (read, or named without a call), with the ``def``
whose body holds it (a lambda's code counts as its enclosing ``def``'s; module or class level:
None).  Stores (``obj.attr = v``) are left out: they are no read of the attribute."""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.syntax.fast_walk import FastVisitor

Mention = Tuple[cst.Attribute, Optional[cst.FunctionDef]]


class _Mentions(FastVisitor):
    def __init__(self):
        self.out: Dict[str, List[Mention]] = {}
        self._defs: List[cst.FunctionDef] = []
        self._stores: set = set()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._defs.append(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._defs.pop()

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

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if id(node) not in self._stores:
            self.out.setdefault(node.attr.value, []).append((node, self._defs[-1] if self._defs else None))


def attribute_mentions(index, module: cst.Module) -> Dict[str, List[Mention]]:
    """The module's mentions of attribute names (computed once, kept on the index)."""
    found = index.__dict__.get("_attribute_mentions")
    if found is None:
        walker = _Mentions()
        walker.walk(module)
        found = index.__dict__["_attribute_mentions"] = walker.out
    return found
