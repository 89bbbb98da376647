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

Most of that import is LibCST's node classes, each a dataclass: the dataclasses module writes
the source of each class' ``__init__``, ``__eq__``, ``__repr__``... and compiles it, a thousand
compilations that take more than half the import's time and give the same code in every run.
That code is kept where Python keeps jaxlint's own compiled modules (``__pycache__``, written
unless Python is told not to write bytecode), by its source text, and executed from there
without compiling: the classes made are the same.
"""

from __future__ import annotations

import dataclasses
import gc
import importlib.util
import marshal
import os
import sys
from contextlib import contextmanager
from typing import Iterator

from jaxlint.atomic import replace_through_temporary


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
    with _compiled_dataclasses():
        if not gc.isenabled():
            yield
            return
        gc.disable()
        try:
            yield
        finally:
            gc.freeze()
            gc.enable()


_CODE_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__", f"dataclasses.{sys.implementation.cache_tag}.marshal")


@contextmanager
def _compiled_dataclasses() -> Iterator[None]:
    """While the block runs, the dataclasses module executes the code kept for the sources it
    has compiled before (it looks ``exec`` up among its module's names before the built-ins);
    then the code the block used is kept, if any was compiled anew."""
    if "exec" in vars(dataclasses):
        yield
        return
    try:
        with open(_CODE_FILE, "rb") as fh:
            magic, known = marshal.loads(fh.read())
        if magic != importlib.util.MAGIC_NUMBER or not isinstance(known, dict):
            known = {}
    except (OSError, EOFError, ValueError, TypeError):
        known = {}
    used, made = {}, []

    def exec_compiled(source, globals=None, locals=None):
        if isinstance(source, str):
            code = used[source] = known.get(source)
            if code is None:
                # as exec compiles it in the dataclasses module, which has no __future__ imports
                code = used[source] = compile(source, "<string>", "exec", dont_inherit=True)
                made.append(source)
            source = code
        exec(source, globals, locals)

    dataclasses.exec = exec_compiled
    try:
        yield
    finally:
        del dataclasses.exec
    if made and not sys.dont_write_bytecode:
        try:
            os.makedirs(os.path.dirname(_CODE_FILE), exist_ok=True)
            replace_through_temporary(_CODE_FILE, marshal.dumps((importlib.util.MAGIC_NUMBER, used)), ".tmp-", ".part", sync=False)
        except (OSError, ValueError):
            pass  # as for a module's compiled file: the next run compiles again


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
