"""The targets of a ``for`` loop (or a comprehension's clause) that take a new value on every
iteration: what the loop counts, and what it draws from a literal of different values."""

from __future__ import annotations

from typing import Optional, Tuple

import libcst as cst

from jaxlint.analysis.syntax.nodes import NOT_LITERAL, literal_value


def counter_of(loop) -> Optional[str]:
    """``for name in range(...)`` / ``for name, _ in enumerate(...)``: the counted name."""
    if not isinstance(loop, (cst.For, cst.CompFor)) or not isinstance(loop.iter, cst.Call) or not isinstance(loop.iter.func, cst.Name):
        return None
    fn, t = loop.iter.func.value, loop.target
    if fn == "range" and isinstance(t, cst.Name):
        return t.value
    if fn == "enumerate" and isinstance(t, cst.Tuple) and t.elements and isinstance(t.elements[0].value, cst.Name):
        return t.elements[0].value.value
    return None


def per_iteration_targets(loop) -> Tuple[Tuple[str, bool], ...]:
    """The loop's targets that take a new value on every iteration: the counter, and a name
    drawn from a literal list or tuple of Python literals at least two of which differ
    (``for lr in (0.1, 0.01)``, ``for i, mode in enumerate(["a", "b"])``, ``for n, lr in
    zip([1, 2], [0.1, 0.2])``).  A literal whose elements are all equal, or not all literals,
    proves nothing.  Each with whether it is drawn from a literal."""
    counter = counter_of(loop)
    names = [(counter, False)] if counter is not None else []
    if not isinstance(loop, (cst.For, cst.CompFor)):
        return tuple(names)
    it, t = loop.iter, loop.target
    pairs = [(t, it)]
    if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and isinstance(t, cst.Tuple):
        args = [a.value for a in it.args if not a.star and a.keyword is None]
        if it.func.value == "enumerate" and len(args) == 1 and len(t.elements) == 2:
            pairs = [(t.elements[1].value, args[0])]
        elif it.func.value == "zip" and len(args) == len(t.elements):
            pairs = [(e.value, a) for e, a in zip(t.elements, args)]
    for target, source in pairs:
        if isinstance(target, cst.Name) and len(_distinct_literals(source)) >= 2:
            names.append((target.value, True))
    return tuple(names)


def _distinct_literals(expr) -> set:
    """The distinct values of a list or tuple display whose elements are all Python literals
    (numbers, strings, ``True``/``False``/``None``), else the empty set."""
    if not isinstance(expr, (cst.List, cst.Tuple)):
        return set()
    values = set()
    for el in expr.elements:
        if isinstance(el, cst.StarredElement):
            return set()
        v = literal_value(el.value)
        if v is NOT_LITERAL:
            return set()
        values.add((type(v).__name__, v))
    return values
