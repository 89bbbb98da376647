"""Garbage collection around the linting of one module.

Parsing builds a tree of tens of thousands of nodes that lives until the module is done.  With
the interpreter's default thresholds a young-generation collection runs every 700 allocations
and, as the tree is promoted, the older generations are scanned again and again: measured, that
is a fifth of a run's CPU time.  The tree itself holds no reference cycles (reference counting
frees it); the analysis' scopes and frames do, and they die with the module.  So automatic
collection is paused while one module is linted, and the young generation (everything the module
allocated) is collected once when it is done.

Start-up is the other case: importing LibCST, the analysis and the rules makes a hundred thousand
objects (classes, functions, tables) that live as long as the process and include no garbage,
yet each collection on the way scans those made before it, and every later one, and the
interpreter's exit, scans them again.  Collection is paused while they are imported, and what
they made is then frozen: out of every later collection's way.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


class _Paused:
    def __init__(self, active: bool):
        self.active = active

    def collect(self, generation: int = 0) -> None:
        """Between modules of a paused block: collect what the last one left.  What lived
        through one such collection is in the next generation: ``generation=1`` reaches it."""
        if self.active:
            gc.collect(generation)


@contextmanager
def start_up() -> Iterator[None]:
    """Pause automatic collection while the block imports what the process keeps to its end;
    then freeze every object there is (``gc.freeze``).  A caller that has collection switched
    off keeps it off."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


@contextmanager
def one_collection_per_module() -> Iterator[_Paused]:
    """Pause automatic collection for the block; then collect what it left behind.  A caller
    that has collection switched off keeps it off (and nothing is collected)."""
    if not gc.isenabled():
        yield _Paused(False)
        return
    gc.disable()
    try:
        yield _Paused(True)
    finally:
        gc.enable()
        gc.collect(0)
