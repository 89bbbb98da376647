"""Where a node sits among the statements of a scope's body: the compound statements around
it, and which of their blocks holds it (an ``if``'s body or its ``else``, a ``try``'s handler).
Two simple statements of one block run one after the other; a statement under an ``if`` runs
only sometimes."""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import libcst as cst

from jaxlint.analysis.syntax.fast_walk import _LEAF_TYPES, child_fields

BODY, ORELSE, HANDLER, FINALLY = "body", "orelse", "handler", "finally"


def scope_body(module: cst.Module, scope) -> Sequence[cst.CSTNode]:
    """The statements of the module's or a function's body (none for a class or a lambda)."""
    if scope.kind == "module":
        return module.body
    return scope.node.body.body if isinstance(scope.node, cst.FunctionDef) else ()


class TreeSpans:
    """Which nodes hold which, from one walk of the tree: ``get(node)`` -> (its number, the
    number of the last node below it) in a depth-first numbering of the tree's nodes, or None
    for a node not in it; a node holds another when its span holds the other's.  What the
    functions below need of a module, without its positions (a full print of the module).
    As in the positions, a def or class starts at its keyword: its decorators, which run in
    the scope around it, are numbered before it, not inside it."""

    def __init__(self, root: cst.CSTNode):
        spans: Dict[int, Tuple[int, int]] = {}
        is_node = _IS_NODE
        leaves = _LEAF_TYPES
        n = 0
        stack: list = [root]
        while stack:
            x = stack.pop()
            if type(x) is tuple:  # the end of a subtree: (the node's id, its number)
                spans[x[0]] = (x[1], n - 1)
                continue
            if type(x) in leaves:  # nothing below it
                spans[id(x)] = (n, n)
                n += 1
                continue
            stack.append((id(x), n))
            n += 1
            for name in child_fields(x):
                v = getattr(x, name)
                tv = type(v)
                if tv is tuple or tv is list:
                    for c in v:
                        tc = type(c)
                        if is_node.get(tc) or tc not in is_node and _node_type(tc):
                            stack.append(c)
                            if tc is cst.FunctionDef or tc is cst.ClassDef:
                                stack.extend(c.decorators)
                elif is_node.get(tv) or tv not in is_node and _node_type(tv):
                    stack.append(v)
        self._spans = spans

    def get(self, node) -> Optional[Tuple[int, int]]:
        return self._spans.get(id(node))


# type -> whether it is a LibCST node: ``isinstance`` against the abstract CSTNode is slow.
# Decorators are taken with their def or class, in the block around it.
_IS_NODE: Dict[type, bool] = {cst.Decorator: False}


def _node_type(t: type) -> bool:
    _IS_NODE[t] = ok = issubclass(t, cst.CSTNode)
    return ok


def _holds(outer: Optional[Tuple[int, int]], inner: Tuple[int, int]) -> bool:
    return outer is not None and outer[0] <= inner[0] and inner[1] <= outer[1]


def statement_path(body: Sequence[cst.CSTNode], node, spans: TreeSpans) -> Optional[List[Tuple[cst.CSTNode, str]]]:
    """(statement, which block of the statement before it holds it) from ``body`` down to the
    simple statement that holds ``node``, outermost first (the first one's block is BODY);
    None when ``node`` is in a nested def or class, or not in ``body``.  ``spans``: the
    module's TreeSpans."""
    at = spans.get(node)
    path: List[Tuple[cst.CSTNode, str]] = []
    part = BODY
    while at is not None:
        st = next((st for st in body if _holds(spans.get(st), at)), None)
        if st is None or isinstance(st, (cst.FunctionDef, cst.ClassDef)):
            return None
        path.append((st, part))
        if isinstance(st, cst.SimpleStatementLine):
            return path
        inner = [(b, p) for b, p in statement_blocks(st) if any(_holds(spans.get(x), at) for x in b)]
        if not inner:
            return None
        body, part = inner[0]
    return None


def guards(body: Sequence[cst.CSTNode], node, spans: TreeSpans) -> List[Tuple[cst.BaseExpression, bool, Sequence[cst.CSTNode]]]:
    """The tests that decide whether ``node`` runs, outermost first, each with the outcome that
    lets it run and the statements that run then: an ``if`` around it (true for its body,
    false for its ``else``), with the branch that holds it; and an ``if`` before it in a block
    around it that leaves the function (its body ends in ``return`` or ``raise``, with no
    ``else``: false), with the statements after that ``if``.  Empty when ``node`` is in a
    nested def or class, or not in ``body``."""
    at = spans.get(node)
    out: List[Tuple[cst.BaseExpression, bool, Sequence[cst.CSTNode]]] = []
    block: Sequence[cst.CSTNode] = body
    while at is not None:
        i = next((i for i, st in enumerate(block) if _holds(spans.get(st), at)), None)
        if i is None or isinstance(block[i], (cst.FunctionDef, cst.ClassDef)):
            return []
        for j, before in enumerate(block[:i]):
            if isinstance(before, cst.If) and before.orelse is None and _leaves(before.body):
                out.append((before.test, False, block[j + 1 :]))
        st = block[i]
        if isinstance(st, cst.SimpleStatementLine):
            return out
        if isinstance(st, cst.If) and isinstance(st.body, cst.SimpleStatementSuite) and _holds(spans.get(st.body), at):
            out.append((st.test, True, [st.body]))
            return out
        inner = [(b, p) for b, p in statement_blocks(st) if any(_holds(spans.get(x), at) for x in b)]
        if not inner:
            return out
        block, part = inner[0]
        if isinstance(st, cst.If) and part in (BODY, ORELSE):
            out.append((st.test, part == BODY, block))
    return out


def _leaves(block) -> bool:
    """Does the block end by leaving the function (``return`` or ``raise`` last)?"""
    last = block.body[-1] if block.body else None
    if isinstance(last, cst.SimpleStatementLine):
        last = last.body[-1] if last.body else None
    return isinstance(last, (cst.Return, cst.Raise))


def block_key(path: List[Tuple[cst.CSTNode, str]]) -> Tuple[int, str]:
    """Equal for two paths whose simple statements are in one block."""
    parent = path[-2][0] if len(path) > 1 else None
    return id(parent), path[-1][1]


def conditional(path: List[Tuple[cst.CSTNode, str]]) -> bool:
    """Is the innermost statement under an ``if``, a ``match``, an ``except``, or the ``else``
    of a loop or ``try``, inside the innermost loop of the path (or anywhere, without one)?"""
    loops = [i for i, (st, _p) in enumerate(path) if isinstance(st, (cst.For, cst.While))]
    start = loops[-1] + 1 if loops else 0
    inside = path[start:]
    return any(p in (ORELSE, HANDLER) for _st, p in inside) or any(isinstance(st, (cst.If, cst.Match)) for st, _p in inside[:-1])


def statement_blocks(st) -> List[Tuple[List[cst.CSTNode], str]]:
    """The statement lists a compound statement holds, each with its kind of block."""
    out: List[Tuple[List[cst.CSTNode], str]] = []
    parts = [(st, BODY)] + [(h, HANDLER) for h in getattr(st, "handlers", ())] + [(h, HANDLER) for h in getattr(st, "cases", ())]
    parts += [(getattr(st, "orelse", None), ORELSE), (getattr(st, "finalbody", None), FINALLY)]
    for part, kind in parts:
        if isinstance(part, cst.If) and part is not st:
            out.append(([part], kind))  # elif
            continue
        block = getattr(part, "body", None)
        if isinstance(block, cst.IndentedBlock):
            out.append((list(block.body), kind))
    return out


def contains(outer, inner) -> bool:
    """Does the code range ``outer`` hold the range ``inner``?"""
    return (
        outer is not None
        and (outer.start.line, outer.start.column) <= (inner.start.line, inner.start.column)
        and (inner.end.line, inner.end.column) <= (outer.end.line, outer.end.column)
    )
