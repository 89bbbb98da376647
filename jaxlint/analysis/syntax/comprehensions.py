"""Comprehensions are loops: a list, set or dict comprehension or a generator expression runs
its element, its ``if`` filters and the iterables of its inner ``for`` clauses once per element,
as the body of a ``for`` statement runs once per iteration.  Only the first clause's iterable
is evaluated once, in the enclosing scope, before the loop starts.

This names the parts in the order Python evaluates them, so that every walk that models loops
(the scope index's loop spans, the per-iteration values) treats a comprehension as the nest of
``for`` loops it is."""

from __future__ import annotations

from typing import List, Tuple

import libcst as cst


def clauses(node) -> List[cst.CompFor]:
    """The ``for`` clauses of a comprehension, outermost first."""
    out = []
    f = node.for_in
    while f is not None:
        out.append(f)
        f = f.inner_for_in
    return out


def repeated_parts(node) -> Tuple[cst.CSTNode, ...]:
    """What runs once per element: the element (or key and value), after the clauses."""
    return tuple(getattr(node, n) for n in ("elt", "key", "value") if getattr(node, n, None) is not None)
