"""Values that change on every iteration of a loop, for the rules about static arguments.

A variable changes on every iteration when the loop counts it (``for step in range(n)``), draws
it from a literal list of different values (``for lr in (0.1, 0.01)``), or
when a statement directly in the loop's body (not under an ``if``: a schedule that changes
now and then compiles a few times, which is what static arguments are for) updates it from
itself (``lr = lr * 0.9``, ``n += 1``), computes it from the counter (``t = step * dt``), or
makes a Python float of what the loop binds (``t = float(sol.ts[-1])``, ``tuple(float(v) for v
in grid)``): a float read off the data or the count of each iteration is a new value each time
(and never a shape or a count, which is what a static value may have to be).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.syntax.comprehensions import clauses, repeated_parts
from jaxlint.analysis.syntax.fast_walk import FastVisitor, names_in, node_children
from jaxlint.analysis.syntax.loop_targets import counter_of, per_iteration_targets
from jaxlint.analysis.syntax.nodes import simple_statements

UPDATE_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Power)
AUG_OPERATORS = (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign, cst.DivideAssign, cst.FloorDivideAssign, cst.PowerAssign)


class LoopUpdate:
    __slots__ = ("statement", "counter", "from_literal")

    def __init__(self, statement, counter: bool, from_literal: bool = False):
        self.statement = statement  # the updating statement (or the loop itself for its counter)
        self.counter = counter
        # drawn from a literal list of a few values (``for lr in (0.1, 0.01)``), not counted
        self.from_literal = from_literal


def _updates_in(loop) -> Dict[str, cst.CSTNode]:
    """Names the loop's body updates unconditionally, each from itself or from the counter, or
    to a float of what the loop binds (a comprehension's clause has no statements: none)."""
    counter = counter_of(loop)
    out: Dict[str, cst.CSTNode] = {}
    smalls = list(simple_statements(getattr(loop, "body", None)))
    bound = names_in(loop.target) if isinstance(loop, cst.For) else set()
    bound.update(t.target.value for small in smalls if isinstance(small, cst.Assign) for t in small.targets if isinstance(t.target, cst.Name))
    for small in smalls:
        if isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name) and isinstance(small.operator, AUG_OPERATORS):
            out[small.target.value] = small
        elif isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            name = small.targets[0].target.value
            read = names_in(small.value)
            if isinstance(small.value, cst.BinaryOperation) and isinstance(small.value.operator, UPDATE_OPERATORS):
                if name in read or (counter is not None and counter in read):
                    out[name] = small
            elif read & bound and _makes_float(small.value):
                out[name] = small
    return out


def _makes_float(node) -> bool:
    """Does ``node`` convert something to a Python float (``float(x)``)?"""
    is_float = type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "float"
    return is_float or any(_makes_float(c) for c in node_children(node))


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
                found[counter] = LoopUpdate(loop, True, from_literal)
            for name, st in updates.items():
                found[name] = LoopUpdate(st, False)
        self.changing[id(node)] = found

    def changing_at(self, call: cst.Call, name: str) -> Optional[LoopUpdate]:
        """How ``name`` changes on every iteration of a loop around ``call``, if it does."""
        return self.changing.get(id(call), {}).get(name)
