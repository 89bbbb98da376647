"""A cheap read-only walk of a LibCST tree, with ``CSTVisitor``'s hooks and order."""

from __future__ import annotations

import dataclasses

from typing import Dict, List, Set, Tuple

import libcst as cst

from jaxlint.analysis.syntax.nodes import dotted_name
from libcst._nodes import op as _op, whitespace as _ws

# ``CSTNode.visit`` rebuilds every node of the tree on the way back up (about 0.7x the parse
# time for a visitor that does nothing).  The module index only reads the tree, so it walks the
# children itself: same order as LibCST (the order of ``_visit_and_replace_children``), same
# ``visit_X``/``leave_X`` semantics (``visit_X`` returning False skips the children, ``leave_X``
# still runs), but no node is rebuilt and whitespace, tokens and leaves are never entered.

# Fields that only ever hold whitespace or punctuation.
_SKIP_FIELDS = frozenset(
    {
        "lpar",
        "rpar",
        "lbracket",
        "rbracket",
        "lbrace",
        "rbrace",
        "leading_lines",
        "lines_after_decorators",
        "header",
        "footer",
        "comma",
        "semicolon",
        "dot",
        "colon",
        "equal",
        "operator",
        "trailing_whitespace",
        "newline",
        "asynchronous",
        "whitespace",
        "whitespace_before",
        "whitespace_after",
    }
)


def _leaf_types() -> frozenset:
    """Node types whose subtrees hold no statement, call or binding: never entered."""

    # Read from the MRO: ``issubclass`` against the ABC ``CSTNode`` answers "no" for a class
    # of these modules that is not a node (an enum, a typing alias) only after walking all
    # of CSTNode's subclasses.
    out = {v for mod in (_op, _ws) for v in vars(mod).values() if isinstance(v, type) and cst.CSTNode in v.__mro__}
    out.update(
        {
            cst.Name,
            cst.Integer,
            cst.Float,
            cst.Imaginary,
            cst.SimpleString,
            cst.Ellipsis,
            cst.LeftParen,
            cst.RightParen,
            cst.LeftSquareBracket,
            cst.RightSquareBracket,
            cst.LeftCurlyBrace,
            cst.RightCurlyBrace,
            cst.Asynchronous,
            cst.FormattedStringText,
        }
    )
    return frozenset(out)


class _FieldRecorder(cst.CSTVisitor):
    """Records the order in which LibCST visits a node's child fields (one level only)."""

    def __init__(self):
        super().__init__()
        self.fields: List[str] = []

    def on_visit(self, node) -> bool:
        return False

    def on_leave(self, original_node) -> None:
        pass

    def on_visit_attribute(self, node, attribute: str) -> None:
        self.fields.append(attribute)

    def on_leave_attribute(self, original_node, attribute: str) -> None:
        pass


_FIELD_ORDER: Dict[type, Tuple[str, ...]] = {}


def child_fields(node: cst.CSTNode) -> Tuple[str, ...]:
    """The child fields of ``node``'s type in LibCST's visiting order, punctuation left out."""
    t = type(node)
    fields = _FIELD_ORDER.get(t)
    if fields is None:
        rec = _FieldRecorder()
        node._visit_and_replace_children(rec)
        seen: List[str] = []
        for f in rec.fields:
            if f not in seen and f not in _SKIP_FIELDS and not f.startswith("whitespace"):
                seen.append(f)
        # An optional child that is None in this instance is not visited, so not recorded
        # (f"{x}" has no format_spec): keep every other field too, or later instances of the
        # type that have it would not be walked there.  Non-node values are skipped by walk().
        for f in dataclasses.fields(t):
            name = f.name
            if name not in seen and name not in _SKIP_FIELDS and not name.startswith("whitespace"):
                seen.append(name)
        fields = _FIELD_ORDER[t] = tuple(seen)
    return fields


def node_children(node: cst.CSTNode) -> List[cst.CSTNode]:
    """The child nodes of ``node`` in source order, whitespace and punctuation left out:
    ``node.children`` without the cost of LibCST visiting the node to collect them."""
    out: List[cst.CSTNode] = []
    for name in child_fields(node):
        v = getattr(node, name)
        tv = type(v)
        if tv is tuple or tv is list:
            out.extend(c for c in v if isinstance(c, cst.CSTNode))
        elif isinstance(v, cst.CSTNode):
            out.append(v)
    return out


def holds(root: cst.CSTNode, target: cst.CSTNode, skip: tuple = ()) -> bool:
    """``target`` is ``root`` or a node below it, not below a node of a ``skip`` type."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node is target:
            return True
        if not isinstance(node, skip):
            stack.extend(node_children(node))
    return False


class FastVisitor:
    """A read-only visitor with ``CSTVisitor``'s hooks and order, minus the tree rebuild.

    Subclasses define ``visit_<Type>(node)`` (return False to skip the children) and
    ``leave_<Type>(node)``; ``self.walk(node)`` visits a subtree.  Types with a hook are always
    entered, even when they are normally skipped as leaves.
    """

    _plans: Dict[type, tuple]
    _skip: frozenset

    def __init_subclass__(cls, **kw) -> None:
        super().__init_subclass__(**kw)
        cls._plans = {}
        hooked = {n.split("_", 1)[1] for n in dir(cls) if n.startswith(("visit_", "leave_"))}
        leaves = {t for t in _LEAF_TYPES if t.__name__ not in hooked}
        cls._skip = frozenset(leaves | {type(None), str, bool, int, float, type(cst.MaybeSentinel.DEFAULT)})

    def _plan(self, node) -> tuple:
        t = type(node)
        cls = type(self)
        plan = (
            getattr(cls, "visit_" + t.__name__, None),
            getattr(cls, "leave_" + t.__name__, None),
            child_fields(node),
        )
        cls._plans[t] = plan
        return plan

    def walk(self, node) -> None:
        plan = self._plans.get(type(node))
        if plan is None:
            plan = self._plan(node)
        visit, leave, fields = plan
        if visit is None or visit(self, node) is not False:
            skip = self._skip
            for name in fields:
                v = getattr(node, name)
                tv = type(v)
                if tv is tuple or tv is list:
                    for c in v:
                        if type(c) not in skip:
                            self.walk(c)
                elif tv not in skip:
                    self.walk(v)
        if leave is not None:
            leave(self, node)


_LEAF_TYPES = _leaf_types()


def record_dotted(out: Set[str], node: cst.Attribute) -> bool:
    """Add the plain dotted name ``node`` writes (``a.b.c``) to ``out``; whether to visit below
    it: nothing is there but its names, unless it is another attribute (``f(x).y``)."""
    name = dotted_name(node)
    if name is None:
        return True
    out.add(name)
    return False


class DottedAttributes(FastVisitor):
    """The outermost plain dotted names written as attributes in a subtree, added to ``out``."""

    def __init__(self, out: Set[str]):
        self.out = out

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        return record_dotted(self.out, node)


class _Names(FastVisitor):
    def __init__(self):
        self.names: Set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)


def names_in(node) -> Set[str]:
    """Every name written in ``node``'s subtree (read or bound, attribute names included)."""
    v = _Names()
    v.walk(node)
    return v.names
