"""Values that change on every iteration of a loop, for the rules about static arguments.

A variable changes on every iteration when the loop counts it (``for step in range(n)``) or
when a statement directly in the loop's body (not under an ``if``: a schedule that changes
now and then compiles a few times, which is what static arguments are for) updates it from
itself (``lr = lr * 0.9``, ``n += 1``) or computes it from the counter (``t = step * dt``).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.syntax.scopes import FastVisitor

UPDATE_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Power)
AUG_OPERATORS = (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign, cst.DivideAssign, cst.FloorDivideAssign, cst.PowerAssign)


class LoopUpdate:
    __slots__ = ("loop", "statement", "counter")

    def __init__(self, loop, statement, counter: bool):
        self.loop = loop  # the For/While node
        self.statement = statement  # the updating statement (or the For itself for its counter)
        self.counter = counter


def _names_in(expr) -> set:
    v = _Names()
    v.walk(expr)
    return v.names


class _Names(FastVisitor):
    def __init__(self):
        self.names = set()

    def visit_Name(self, node) -> None:
        self.names.add(node.value)


def _counter_of(loop) -> Optional[str]:
    """``for name in range(...)`` / ``for name, _ in enumerate(...)``: the counted name."""
    if not isinstance(loop, cst.For) or not isinstance(loop.iter, cst.Call) or not isinstance(loop.iter.func, cst.Name):
        return None
    fn, t = loop.iter.func.value, loop.target
    if fn == "range" and isinstance(t, cst.Name):
        return t.value
    if fn == "enumerate" and isinstance(t, cst.Tuple) and t.elements and isinstance(t.elements[0].value, cst.Name):
        return t.elements[0].value.value
    return None


def _updates_in(loop) -> Dict[str, cst.CSTNode]:
    """Names the loop's body updates unconditionally, each from itself or from the counter."""
    counter = _counter_of(loop)
    out: Dict[str, cst.CSTNode] = {}
    for st in loop.body.body if isinstance(loop.body, cst.IndentedBlock) else ():
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
                read = _names_in(small.value)
                if name in read or (counter is not None and counter in read):
                    out[name] = small
    return out


class LoopUpdates(FastVisitor):
    """For every call inside a loop: the variables that change on each iteration around it."""

    def __init__(self, module: cst.Module):
        self._stack: List[Tuple[cst.CSTNode, Dict[str, cst.CSTNode], Optional[str]]] = []
        self.changing: Dict[int, Dict[str, LoopUpdate]] = {}
        self.loops: Dict[int, Tuple[cst.CSTNode, ...]] = {}  # id(call) -> enclosing loops, outermost first
        self.walk(module)

    def _enter(self, loop) -> None:
        self._stack.append((loop, _updates_in(loop), _counter_of(loop)))

    def visit_For(self, node) -> None:
        self._enter(node)

    def leave_For(self, node) -> None:
        self._stack.pop()

    def visit_While(self, node) -> None:
        self._enter(node)

    def leave_While(self, node) -> None:
        self._stack.pop()

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
        for loop, updates, counter in self._stack:
            if counter is not None:
                found[counter] = LoopUpdate(loop, loop, True)
            for name, st in updates.items():
                found[name] = LoopUpdate(loop, st, False)
        self.changing[id(node)] = found

    def changing_at(self, call: cst.Call, name: str) -> Optional[LoopUpdate]:
        """How ``name`` changes on every iteration of a loop around ``call``, if it does."""
        return self.changing.get(id(call), {}).get(name)
