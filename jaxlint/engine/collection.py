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

The modules themselves are kept there too, in one file.  Python's import asks the file system
about a dozen times for each module (the folder, the source, the compiled file: stat, open,
read), and start-up imports some 250 of them (jaxlint's analysis and rules, LibCST); where a
file system call is slow (a network file system) that is most of the start-up.  A module kept
from the last start-up is taken from that file after one ``stat`` of its source, and of its
folder once: the source's modification time and size, and the folder's (which changes when a
file there is added, removed or renamed, so the module Python would find is the same), must be
those the compiled code was kept with, or the module is imported as usual.
"""

from __future__ import annotations

import _imp
import dataclasses
import gc
import importlib.util
import marshal
import os
import sys
from contextlib import contextmanager
from importlib.machinery import SourceFileLoader
from typing import Dict, Iterator, Optional, Set, Tuple

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
    with _compiled_dataclasses(), _kept_modules():
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
    known = _read(_CODE_FILE)
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
    if made:
        _write(_CODE_FILE, used)


def _read(path: str) -> dict:
    try:
        with open(path, "rb") as fh:
            magic, table = marshal.loads(fh.read())
        return table if magic == importlib.util.MAGIC_NUMBER and isinstance(table, dict) else {}
    except (OSError, EOFError, ValueError, TypeError):
        return {}


def _write(path: str, table: dict) -> None:
    if not sys.dont_write_bytecode:
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            replace_through_temporary(path, marshal.dumps((importlib.util.MAGIC_NUMBER, table)), ".tmp-", ".part", sync=False)
        except (OSError, ValueError):
            pass  # as for a module's compiled file: the next run compiles again


_MODULES_FILE = os.path.join(os.path.dirname(_CODE_FILE), f"modules.{sys.implementation.cache_tag}.marshal")


class _KeptLoader(SourceFileLoader):
    """Python's loader of a source module, whose compiled code is at hand."""

    def __init__(self, name: str, path: str, code: bytes):
        super().__init__(name, path)
        self._code = code

    def get_code(self, fullname):
        code = marshal.loads(self._code)
        _imp._fix_co_filename(code, self.path)  # as Python does for a moved compiled file
        return code


def _stamp(path: str) -> Optional[Tuple[int, int]]:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def _folder(origin: str, package: bool) -> str:
    """The folder Python looked in for the module at ``origin``."""
    return os.path.dirname(os.path.dirname(origin) if package else origin)


class _KeptModules:
    """A finder (first on ``sys.meta_path``) of the submodules kept, each by name: (source path,
    whether a package, the folder's and the source's ``_stamp``, marshalled code)."""

    def __init__(self, kept: Dict[str, tuple]):
        self.kept = kept
        self.folders: Dict[str, Optional[Tuple[int, int]]] = {}
        self.taken: Set[str] = set()

    def find_spec(self, fullname, path=None, target=None):
        entry = self.kept.get(fullname)
        if entry is None or not path:
            return None  # a top-level module: Python looks along sys.path, which may shadow it
        origin, package, folder_stamp, stamp, code = entry
        folder = path[0]
        if _folder(origin, package) != folder:
            return None
        if folder not in self.folders:
            self.folders[folder] = _stamp(folder)
        if self.folders[folder] != folder_stamp or _stamp(origin) != stamp:
            return None
        self.taken.add(fullname)
        where = [os.path.dirname(origin)] if package else None
        return importlib.util.spec_from_file_location(fullname, origin, loader=_KeptLoader(fullname, origin, code), submodule_search_locations=where)


def _keep(name: str, module) -> Optional[tuple]:
    """What ``_KeptModules`` needs of a submodule imported from its source; None for another."""
    spec = getattr(module, "__spec__", None)
    if "." not in name or type(getattr(spec, "loader", None)) is not SourceFileLoader:
        return None
    package = spec.submodule_search_locations is not None
    # stamped before the code is read: a source edited in between is taken as changed next time
    stamps = _stamp(_folder(spec.origin, package)), _stamp(spec.origin)
    if None in stamps:
        return None
    try:
        code = marshal.dumps(spec.loader.get_code(name))
    except (ImportError, OSError, ValueError):
        return None
    return (spec.origin, package, *stamps, code)


@contextmanager
def _kept_modules() -> Iterator[None]:
    """While the block runs, the submodules kept from the last start-up are imported from the
    kept file; then the modules the block imported are kept, if any was imported as usual."""
    finder = _KeptModules(_read(_MODULES_FILE))
    before = set(sys.modules)
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
    if sys.dont_write_bytecode:
        return
    new = [name for name in sys.modules if name not in before]
    keep = {name: finder.kept[name] if name in finder.taken else _keep(name, sys.modules[name]) for name in new}
    if len(finder.taken) < sum(entry is not None for entry in keep.values()):  # one was imported as usual
        _write(_MODULES_FILE, {name: entry for name, entry in keep.items() if entry is not None})


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
