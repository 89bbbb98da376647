"""Writes to Python state that the trace did not make, and whether they outlive the trace.

Effects run at trace time, once per trace.  A write matters only where what it left is still
there when the trace ends: one that later code of the same trace replaces on every path (a
value saved in a shared store and cleared before the function returns, an attribute set
for the duration of a call and set back) leaves the state as each call would.  So a write
to such state is held until the entry's trace ends, and dropped if code that runs after it
on every path replaces the state it wrote: a ``.clear()``, a new value assigned to the
variable or attribute, or the value it held before the trace written back.

A path is the tuple of branches the interpretation is in (an ``if`` decided only at run time,
a loop body, a ``try`` body or handler, the rest of a block after a statement that may
``return``); code at path P runs after every write at a path that P begins.  A callee
memoised per abstract signature is not interpreted again: what it wrote and replaced is
replayed at the call.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Dict, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.traced.values import MADE_IN_TRACE, STATIC


def state_of(frame, expr) -> Optional[tuple]:
    """The Python state ``expr`` names, as a key: a global or closure variable, or an object
    from outside the trace that a local holds (a method's ``self``), then the attributes read
    on it (``self._data``: the receiver's ``_data``).  None for anything else."""
    path: List[str] = []
    while isinstance(expr, cst.Attribute):
        path.append(expr.attr.value)
        expr = expr.value
    if not isinstance(expr, cst.Name):
        return None
    name = expr.value
    v = frame.lookup(name) if name not in frame.declared else None
    if v is not None:
        if v.outer is not None:
            root: tuple = ("var", v.outer[0], v.outer[1])
        elif v.kind == STATIC and v.cls is not None and not v.flags & MADE_IN_TRACE:
            root = ("obj", v)  # one object, passed along from frame to frame (compared by identity)
        else:
            return None
    else:
        owner = frame.scope.lookup_scope(name)
        if owner is None:
            return None
        root = ("var", owner, name)
    return root + tuple(reversed(path))


class Effects:
    """The writes of the trace being interpreted, held until it ends (one per Analyzer)."""

    __slots__ = ("path", "tokens", "pending", "log", "snapshots", "restoring")

    def __init__(self) -> None:
        self.path: tuple = ()
        self.tokens = 0
        # [state, path, finding, pushed, order]: a write whose result may outlive the trace; the
        # finding None where no rule reports it (a push a pop may take back); ``pushed``: the
        # id of the ``.append()`` call that made it
        self.pending: List[list] = []
        # ("write", entry) / ("replace", state, path) / ("undo", state, path), in order: what a
        # memoised call replays
        self.log: List[tuple] = []
        # (id(frame), local) -> (state, len(log), frame): ``prev = self.mode`` kept what the
        # state held
        self.snapshots: Dict[Tuple[int, str], tuple] = {}
        self.restoring: set = set()  # ids of writes that put back what the state held

    @contextmanager
    def branch(self):
        """Code that runs on some paths only."""
        saved = self.path
        self.tokens += 1
        self.path = saved + (self.tokens,)
        try:
            yield
        finally:
            self.path = saved

    def fork(self) -> None:
        """What follows runs only where an earlier statement did not leave (the caller restores
        the path where that block ends)."""
        self.tokens += 1
        self.path = self.path + (self.tokens,)

    def _add(self, state: tuple, path: tuple, finding, pushed) -> list:
        entry = [state, path, finding, pushed, len(self.log)]
        self.pending.append(entry)
        self.log.append(("write", entry))
        return entry

    def write(self, state: Optional[tuple], finding: tuple, stmt=None) -> Optional[tuple]:
        """A write to ``state``; the finding to report if it outlives the trace.  Returns the
        finding when it cannot be held (the state is not known), else None."""
        if stmt is not None and id(stmt) in self.restoring:
            return None  # what the state held before, put back
        if state is None:
            return finding
        last = self.pending[-1] if self.pending else None
        if last is not None and stmt is not None and last[3] == id(stmt) and last[2] is None:
            last[2] = finding  # the push just recorded
        else:
            self._add(state, self.path, finding, None)
        return None

    def push(self, state: Optional[tuple], call) -> None:
        """``state.append(...)``: what a later ``.pop()`` takes back (a rule may report it)."""
        if state is not None:
            self._add(state, self.path, None, id(call))

    def undo(self, state: Optional[tuple], call, path: Optional[tuple] = None) -> None:
        """``state.pop()`` after this trace pushed onto ``state``: where every path to the pop
        pushed, it takes back what the trace put there, not a value from before; where every
        path after the push pops, the push does not outlive the trace."""
        here = self.path if path is None else path
        n = len(here)
        for i in range(len(self.pending) - 1, -1, -1):
            entry = self.pending[i]
            if state is None or entry[3] is None or entry[0] != state:
                continue
            covers, after = here[: len(entry[1])] == entry[1], entry[1][:n] == here
            if covers or after:
                if after:
                    del self.pending[i]
                if covers and call is not None:
                    self.restoring.add(id(call))
                self.log.append(("undo", state, here))
            return

    def replace(self, state: Optional[tuple], path: Optional[tuple] = None) -> None:
        """``state`` (and all it holds) is given a new value here: the writes to it made before,
        on every path that leads here, are gone."""
        if state is None:
            return
        here = self.path if path is None else path
        n = len(here)
        self.pending = [p for p in self.pending if not (p[0][: len(state)] == state and p[1][:n] == here)]
        self.log.append(("replace", state, here))

    def snapshot(self, frame, name: str, state: Optional[tuple]) -> None:
        """``name = <state>`` in ``frame``: the local holds what the state holds now."""
        key = (id(frame), name)
        if state is None:
            self.snapshots.pop(key, None)
        else:
            self.snapshots[key] = (state, len(self.log), frame)

    def restores(self, frame, state: Optional[tuple], value, stmt) -> bool:
        """``<state> = value`` writes back a local that kept the state before this trace wrote
        it (no write to the state still held is older than the snapshot)."""
        if state is None or not isinstance(value, cst.Name):
            return False
        kept = self.snapshots.get((id(frame), value.value))
        if kept is None or kept[2] is not frame or kept[0] != state:
            return False
        if any(p[0][: len(state)] == state and p[4] < kept[1] for p in self.pending):
            return False
        self.restoring.add(id(stmt))
        return True

    def since(self, start: int, base: tuple) -> List[tuple]:
        """The log from ``start`` on, its paths made relative to ``base`` (what a call did)."""
        n = len(base)
        out = []
        for op in self.log[start:]:
            if op[0] == "write":
                e = op[1]
                out.append(("write", e[0], e[1][n:], e[2], e[3]))
            else:
                out.append((op[0], op[1], op[2][n:]))
        return out

    def replay(self, ops: List[tuple]) -> None:
        """A memoised call's writes and what took them back, again at the current path."""
        for op in ops:
            path = self.path + op[2]
            if op[0] == "write":
                self._add(op[1], path, op[3], op[4])
            elif op[0] == "undo":
                self.undo(op[1], None, path)
            else:
                self.replace(op[1], path)

    def end(self) -> List[tuple]:
        """The trace ended: the findings of the writes still held; all is reset."""
        out = [p[2] for p in self.pending if p[2] is not None]
        self.pending, self.log, self.path = [], [], ()
        self.snapshots.clear()
        self.restoring.clear()
        return out
