"""Values that change on every iteration of a loop, for the rules about static arguments.

A variable changes on every iteration when the loop counts it (``for step in range(n)``), draws
it from a literal list of different values (``for lr in (0.1, 0.01)``), or
when a statement directly in the loop's body (not under an ``if``: a schedule that changes
now and then compiles a few times, which is what static arguments are for) updates it from
itself (``lr = lr * 0.9``, ``n += 1``) or computes it from the counter (``t = step * dt``).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.syntax.comprehensions import clauses, repeated_parts
from jaxlint.analysis.syntax.fast_walk import FastVisitor, names_in
from jaxlint.analysis.syntax.nodes import NOT_LITERAL, literal_value

UPDATE_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Power)
AUG_OPERATORS = (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign, cst.DivideAssign, cst.FloorDivideAssign, cst.PowerAssign)


class LoopUpdate:
    __slots__ = ("loop", "statement", "counter", "from_literal")

    def __init__(self, loop, statement, counter: bool, from_literal: bool = False):
        self.loop = loop  # the For/While node, or a comprehension's CompFor clause
        self.statement = statement  # the updating statement (or the For itself for its counter)
        self.counter = counter
        # drawn from a literal list of a few values (``for lr in (0.1, 0.01)``), not counted
        self.from_literal = from_literal


def _counter_of(loop) -> Optional[str]:
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
    counter = _counter_of(loop)
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




def _updates_in(loop) -> Dict[str, cst.CSTNode]:
    """Names the loop's body updates unconditionally, each from itself or from the counter (a
    comprehension's clause has no statements: none)."""
    counter = _counter_of(loop)
    out: Dict[str, cst.CSTNode] = {}
    for st in loop.body.body if isinstance(getattr(loop, "body", None), cst.IndentedBlock) else ():
        if not isinstance(st, cst.SimpleStatementLine):
            continue
        for small in st.body:
            if isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name) and isinstance(small.operator, AUG_OPERATORS):
                out[small.target.value] = small
            elif (
                isinstance(small, cst.Assign)
                and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name)
                and isinstance(small.value, cst.BinaryOperation)
                and isinstance(small.value.operator, UPDATE_OPERATORS)
            ):
                name = small.targets[0].target.value
                read = names_in(small.value)
                if name in read or (counter is not None and counter in read):
                    out[name] = small
    return out


class LoopUpdates(FastVisitor):
    """For every call inside a loop: the variables that change on each iteration around it."""

    def __init__(self, module: cst.Module):
        self._stack: List[Tuple[cst.CSTNode, Dict[str, cst.CSTNode], Tuple[Tuple[str, bool], ...]]] = []
        self.changing: Dict[int, Dict[str, LoopUpdate]] = {}
        self.loops: Dict[int, Tuple[cst.CSTNode, ...]] = {}  # id(call) -> enclosing loops, outermost first
        self.walk(module)

    def _enter(self, loop) -> None:
        self._stack.append((loop, _updates_in(loop), per_iteration_targets(loop)))

    def visit_For(self, node) -> None:
        self._enter(node)

    def leave_For(self, node) -> None:
        self._stack.pop()

    def visit_While(self, node) -> None:
        self._enter(node)

    def leave_While(self, node) -> None:
        self._stack.pop()

    def _comprehension(self, node) -> bool:
        """Each ``for`` clause is a loop around what follows it (its first iterable runs once,
        outside): its targets change on every iteration as a ``for`` statement's do."""
        fors = clauses(node)
        self.walk(fors[0].iter)
        depth = len(self._stack)
        for i, f in enumerate(fors):
            if i:
                self.walk(f.iter)
            self._enter(f)
            for c in f.ifs:
                self.walk(c)
        for part in repeated_parts(node):
            self.walk(part)
        del self._stack[depth:]
        return False

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_FunctionDef(self, node) -> bool:
        # the body of a nested function runs when it is called, not in the loop around its def
        saved, self._stack = self._stack, []
        self.walk(node.body)
        self._stack = saved
        return False

    def visit_Lambda(self, node) -> bool:
        return False

    def visit_Call(self, node) -> None:
        if not self._stack:
            return
        found: Dict[str, LoopUpdate] = {}
        self.loops[id(node)] = tuple(loop for loop, _u, _c in self._stack)
        for loop, updates, counters in self._stack:
            for counter, from_literal in counters:
                found[counter] = LoopUpdate(loop, loop, True, from_literal)
            for name, st in updates.items():
                found[name] = LoopUpdate(loop, st, False)
        self.changing[id(node)] = found

    def changing_at(self, call: cst.Call, name: str) -> Optional[LoopUpdate]:
        """How ``name`` changes on every iteration of a loop around ``call``, if it does."""
        return self.changing.get(id(call), {}).get(name)
