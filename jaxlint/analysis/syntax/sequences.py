"""The element expressions of a list or tuple the code builds, read from the syntax alone.

Both the receiver model (the class of every element) and the call targets (the callable every
element is) ask what a list holds: ``[Block(k) for k in keys]`` (its element expression),
``[Stage(a), Stage(b)]``, ``list(...)``/``tuple(...)`` of one of those, or a name every binding
of which is such a list.  What the elements *are* is theirs to judge.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.syntax.scopes import Scope

_MAX_DEPTH = 6


def element_expressions(expr, scope: Scope, depth: int = 0) -> Optional[List[Tuple[cst.BaseExpression, Scope]]]:
    """(expression, scope) for each element expression of the list or tuple ``expr``; None
    when the code does not show them (an empty or starred literal, a list from elsewhere)."""
    if depth > _MAX_DEPTH:
        return None
    t = type(expr)
    if t is cst.ListComp or t is cst.GeneratorExp:
        return [(expr.elt, scope)]
    if t is cst.List or t is cst.Tuple:
        if not expr.elements or any(type(el) is cst.StarredElement for el in expr.elements):
            return None
        return [(el.value, scope) for el in expr.elements]
    if t is cst.Call and type(expr.func) is cst.Name and expr.func.value in ("list", "tuple"):
        if scope.lookup_scope(expr.func.value) is not None or len(expr.args) != 1 or expr.args[0].keyword or expr.args[0].star:
            return None  # a shadowed builtin, or not one iterable
        return element_expressions(expr.args[0].value, scope, depth + 1)
    if t is cst.Name:
        owner = scope.lookup_scope(expr.value)
        if owner is None or expr.value in owner.globals or expr.value in owner.nonlocals:
            return None
        binds = owner.bindings.get(expr.value, ())
        if not binds or any(b.kind != "assign" or b.value is None or b.order is None for b in binds):
            return None
        out: List[Tuple[cst.BaseExpression, Scope]] = []
        for b in binds:
            inner = element_expressions(b.value, owner, depth + 1)
            if inner is None:
                return None
            out.extend(inner)
        return out
    return None
