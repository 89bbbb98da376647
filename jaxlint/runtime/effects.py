"""The user's state that a trace changed, and the statements that write it.

A jitted function's Python body runs once per trace: a write it makes to state that outlives the
trace (a module global, an object or container a global or a caller holds) runs once per
compilation, and a call that reuses the compiled program skips it.  The observer notes that
state when a trace starts and compares it when the trace is done:

* a name or attribute that held a value and holds another one is a write that runs once per
  trace (a counter, a flag, a step number); one that held ``None`` or nothing is initialised
  lazily, a cache that a later trace would fill with the same;
* a list that changed, or a dict entry that was replaced or removed, is a record made once per
  trace (a log); a dict or a set that only gained entries is a cache;
* state put back as it was before the trace ended (a save and a restore) changed nothing.

Values that hold tracers are the escaped tracers' part (the observer's scan), not this one.
"""

from __future__ import annotations

import ast
import collections
import functools
import inspect
import os
import re
import sys
import types
from typing import Callable, Dict, Iterator, List, Optional, Tuple

from jaxlint.runtime import sites
from jaxlint.runtime.sites import Site, UserCode

_ATOMS = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType, str, bytes, int, float, complex, bool, type(None))
_STORING = {"append", "appendleft", "extend", "extendleft", "insert", "update", "add", "setdefault", "__setitem__"}
_REMOVING = {"pop", "popleft", "remove", "discard", "clear"}
_ITEMS = 100  # entries looked at per container: a state, not a dataset
_DEPTH = 2  # steps below a binding: ``model.stats['n']``
_MISSING = object()


class Change:
    """One piece of state a trace changed: ``root`` (a global's or a caller's name) and the
    ``path`` below it (``.count``, ``['calls']``, ``""`` for the name itself)."""

    def __init__(self, root: str, path: str, kind: str, filename: str, is_global: bool):
        # kind: "rebound", "initialised", "grew" (a list), or "record" (an entry removed, a list shrank)
        self.root, self.path, self.kind = root, path, kind
        self.filename, self.is_global = filename, is_global

    @property
    def shown(self) -> str:
        return self.root + self.path


def attributes(value) -> Optional[Dict[str, object]]:
    """The attributes an object holds, in its ``__dict__`` and its ``__slots__``; None for an
    object without either."""
    attrs = getattr(value, "__dict__", None)
    found = dict(attrs) if isinstance(attrs, dict) else None
    for cls in type(value).__mro__:
        slots = vars(cls).get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name in ("__dict__", "__weakref__"):
                continue
            try:
                item = object.__getattribute__(value, name)
            except Exception:  # an empty slot, or a descriptor that refuses
                continue
            found = {} if found is None else found
            found[name] = item
    return found


def entries(value, owns_class=lambda cls: True) -> Optional[List[Tuple[str, object]]]:
    """(step, item) of what ``value`` holds, for the containers and the objects whose class
    ``owns_class`` accepts; None for anything else."""
    if isinstance(value, (list, tuple, collections.deque)):
        return [(f"[{i}]", v) for i, v in enumerate(list(value)[:_ITEMS])]
    if isinstance(value, dict):
        return [(f"[{k!r}]", v) for k, v in list(value.items())[:_ITEMS]]
    if isinstance(value, (set, frozenset)):  # unordered: an item is known by its identity
        return [(f"{{{id(v)}}}", v) for v in list(value)[:_ITEMS]]
    if isinstance(value, _ATOMS) or not owns_class(type(value)):
        return None
    attrs = attributes(value)
    if attrs is None:
        return None
    return [(f".{k}", v) for k, v in list(attrs.items())[:_ITEMS] if not k.startswith("__")]


def _user_class(user: UserCode):
    """Whether a class is defined in the user's code: a library's object keeps its own books."""

    def owns(cls) -> bool:
        source = getattr(sys.modules.get(getattr(cls, "__module__", "")), "__file__", None)
        return bool(source) and user.owns(source)

    return owns


def _signature(value, owns_class, depth: int = 0):
    """What identifies ``value``'s state: its identity, and below it its entries' signatures."""
    if depth >= _DEPTH or isinstance(value, _ATOMS):
        return (id(value), value, None)
    held = entries(value, owns_class)
    inner = None if held is None else {step: _signature(v, owns_class, depth + 1) for step, v in held}
    return (id(value), value, inner)


def _changes(before, after, path: str = "") -> Iterator[Tuple[str, str, object]]:
    """(path, kind, what the path holds now) of each difference between two signatures of one
    binding."""
    (id_a, value_a, inner_a), (id_b, value_b, inner_b) = before, after
    if id_a != id_b:
        yield path, ("rebound" if value_a is not None and value_a is not _MISSING else "initialised"), value_b
        return
    if inner_a is None or inner_b is None:
        return
    grew_only = not isinstance(value_b, (list, tuple, collections.deque))  # a dict, a set, an object: new keys are a cache's
    for step, sig in inner_a.items():
        if step not in inner_b:
            yield path + step, "record", _MISSING  # removed
        else:
            yield from _changes(sig, inner_b[step], path + step)
    for step in inner_b.keys() - inner_a.keys():
        if grew_only:
            yield path + step, "initialised", inner_b[step][1]  # a new entry: a cache's, unless it holds a tracer
    if not grew_only and len(inner_b) != len(inner_a):
        yield path, ("grew" if len(inner_b) > len(inner_a) else "record"), value_b  # a list that grew: one entry per trace


class Snapshot:
    """The state of the user's modules, of the user's frames on the stack, and of the cells the
    traced function closes over (``function``, when it was found), when a trace starts."""

    def __init__(self, user: UserCode, frame, function=None):
        self.owns_class = _user_class(user)
        # (where, name) -> (read it again, the file it is in, whether a global, its signature)
        self.bindings: Dict[Tuple[object, str], Tuple[Callable[[], object], str, bool, object]] = {}
        for module in list(sys.modules.values()):
            filename = getattr(module, "__file__", None)
            if isinstance(module, types.ModuleType) and filename and user.owns(filename):
                namespace = vars(module)
                for name in list(namespace):
                    if not name.startswith("__"):
                        self._note((filename, name), functools.partial(namespace.get, name, _MISSING), filename, True)
        self.frames = []
        while frame is not None:
            code = frame.f_code
            if user.owns(code.co_filename) and code.co_name != "<module>":
                self.frames.append(frame)
                for name in list(frame.f_locals):
                    self._note((id(frame), name), functools.partial(_local, frame, name), code.co_filename, False)
            frame = frame.f_back
        for fun in _closed_over(function, user):
            cells = zip(fun.__code__.co_freevars, fun.__closure__ or ())
            for name, cell in cells:
                self._note((id(cell), name), functools.partial(cell_value, cell), fun.__code__.co_filename, False)

    def _note(self, key, read, filename: str, is_global: bool) -> None:
        if key not in self.bindings:
            self.bindings[key] = (read, filename, is_global, _signature(read(), self.owns_class))

    def changes(self) -> List[Tuple[Change, object]]:
        """What differs now, each with what its path holds now."""
        return [
            (Change(name, path, kind, filename, is_global), now)
            for (_, name), (read, filename, is_global, before) in self.bindings.items()
            for path, kind, now in _changes(before, _signature(read(), self.owns_class))
        ]


def _local(frame, name: str):
    return frame.f_locals.get(name, _MISSING)


def cell_value(cell):
    try:
        return cell.cell_contents
    except ValueError:  # an empty cell
        return _MISSING


def _closed_over(function, user: UserCode, depth: int = 0) -> List[types.FunctionType]:
    """``function`` and the user's functions its cells hold, two steps deep: the cells a
    ``nonlocal`` write in the traced code can reach."""
    if not isinstance(function, types.FunctionType) or not user.owns(function.__code__.co_filename):
        return []
    found = [function]
    if depth < 2:
        for cell in function.__closure__ or ():
            found.extend(_closed_over(cell_value(cell), user, depth + 1))
    return found


def defined_at(described: str) -> Optional[Tuple[str, int]]:
    """(file, line) of a function JAX describes as ``name defined at FILE:LINE``."""
    m = re.search(r" defined at (.+):(\d+)$", described)
    return (m.group(1), int(m.group(2))) if m else None


def traced_function(frame, described: str):
    """The function object JAX is about to trace, as its cache-miss explanation describes it
    (``name defined at FILE:LINE``), found among the locals of the frames on the stack from
    ``frame`` outwards (JAX's own frames hold it); None when none matches."""
    where = defined_at(described)
    if where is None:
        return None
    name, filename, line = described.split(" defined at ")[0], os.path.abspath(where[0]), where[1]
    while frame is not None:
        for value in list(frame.f_locals.values()):
            try:
                fun = inspect.unwrap(getattr(value, "func", value)) if callable(value) else None
                fun = getattr(fun, "__func__", fun)
            except Exception:  # an object whose attributes refuse to be read, or a cycle of wrappers
                continue
            code = getattr(fun, "__code__", None)
            if code is not None and code.co_name == name.rsplit(".", 1)[-1] and code.co_firstlineno == line and os.path.abspath(code.co_filename) == filename:
                return fun
        frame = frame.f_back
    return None


def writer_site(
    change_root: str, path: str, files: List[str], function_line: Optional[Tuple[str, int]] = None, rebinding: bool = False, removed: bool = False
) -> Optional[Site]:
    """The statement that writes what ``change_root`` + ``path`` reaches: an assignment to the
    name (in a function; ``rebinding``: the name itself was rebound), to the first attribute of
    the path (``self.count += 1``), to an item of it, or a call of a mutating method on it
    (``append``, ``update``; ``pop``, ``clear`` when ``removed``).  The write ran during the trace, so the functions the traced one
    (``function_line``: its file and the line of its ``def``) calls are searched first, nearest
    first, then every other function of ``files``."""
    first = path.split("[", 1)[0].split("{", 1)[0]
    attribute = first[1:].split(".", 1)[0] if first.startswith(".") else None
    functions: List[Tuple[str, ast.AST]] = []
    for filename in dict.fromkeys(([function_line[0]] if function_line else []) + list(files)):
        found = sites.tree_of(filename)
        if found is not None:
            functions.extend((filename, node) for node in ast.walk(found[0]) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))
    for filename, function in _nearest_first(functions, function_line):
        node = _writer_in(function, change_root, attribute, rebinding=rebinding and not path, removed=removed)
        if node is not None:
            return Site(os.path.abspath(filename), node.lineno, node.col_offset + 1, node.end_lineno, node.end_col_offset + 1)
    return None


def _nearest_first(definitions: List[Tuple[str, ast.AST]], function_line: Optional[Tuple[str, int]]) -> Iterator[Tuple[str, ast.AST]]:
    """The functions of ``definitions``: the one defined at ``function_line``, then those it
    calls by name (a class called is its ``__init__``), breadth first, then the rest."""
    by_name: Dict[str, List[Tuple[str, ast.AST]]] = collections.defaultdict(list)
    for filename, node in definitions:
        by_name[node.name].append((filename, node))
    queue = collections.deque()
    if function_line is not None:
        path, line = os.path.abspath(function_line[0]), function_line[1]
        queue.extend(
            (f, n) for f, n in definitions
            if os.path.abspath(f) == path and not isinstance(n, ast.ClassDef) and line in (n.lineno, *(d.lineno for d in n.decorator_list))
        )
    seen = set()
    while queue:
        filename, node = queue.popleft()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, ast.ClassDef):  # a class called: its constructor runs
            queue.extend((filename, n) for n in node.body if isinstance(n, ast.FunctionDef) and n.name in ("__init__", "__post_init__"))
            continue
        yield filename, node
        for inner in ast.walk(node):
            if inner is not node and isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                queue.append((filename, inner))
            elif isinstance(inner, ast.Call) and sites.callee(inner)[1]:
                queue.extend(by_name.get(sites.callee(inner)[1], ()))
    order = {f: i for i, f in enumerate(dict.fromkeys(f for f, _ in definitions))}
    rest = [(f, n) for f, n in definitions if id(n) not in seen and not isinstance(n, ast.ClassDef)]
    # An object the trace changed existed before it: its constructor had run already, and did
    # not run in the trace unless the trace called the class.
    for filename, node in sorted(rest, key=lambda item: (order[item[0]], item[1].lineno)):
        if node.name not in ("__init__", "__post_init__"):
            yield filename, node


def _writer_in(function: ast.AST, name: str, attribute: Optional[str], rebinding: bool, removed: bool = False) -> Optional[ast.AST]:
    aliases: set = set()  # local names bound to what changed, or to a part of it (buf = LOG)

    def is_owner(node) -> bool:  # the expression reaches what changed: LOG, LOG['a'], self.cache[k]
        while True:
            if attribute is not None and isinstance(node, ast.Attribute) and node.attr == attribute:
                return True
            if isinstance(node, ast.Name):
                return node.id in aliases or (attribute is None and node.id == name)
            if not isinstance(node, (ast.Attribute, ast.Subscript)):
                return False
            node = node.value

    if not rebinding:
        for inner in _own_nodes(function):
            if isinstance(inner, ast.Assign) and len(inner.targets) == 1 and isinstance(inner.targets[0], ast.Name) and is_owner(inner.value):
                aliases.add(inner.targets[0].id)

    if rebinding:
        # Only a function that declares the name ``global`` or ``nonlocal`` rebinds it for
        # code outside itself (the owner's own assignments ran before the trace began).
        declared = any(isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names for n in _own_nodes(function))
        if not declared:
            return None
    for inner in _own_nodes(function):
        targets = inner.targets if isinstance(inner, ast.Assign) else [inner.target] if isinstance(inner, (ast.AugAssign, ast.AnnAssign)) else []
        if isinstance(inner, (ast.For, ast.With)):
            targets = [inner.target] if isinstance(inner, ast.For) else [i.optional_vars for i in inner.items if i.optional_vars]
        for t in [n for target in targets for n in _unpacked(target)]:
            if rebinding and isinstance(t, ast.Name) and t.id == name:
                return t
            if not rebinding and not isinstance(t, ast.Name) and is_owner(t):
                return t
        if not rebinding and isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr in (_REMOVING if removed else _STORING) and is_owner(inner.func.value):
            return inner
    return None


def _own_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``function``'s own scope: not those of the functions and classes inside it,
    which are searched on their own."""
    todo = list(ast.iter_child_nodes(function))
    while todo:
        node = todo.pop(0)
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))


def _unpacked(target: ast.AST) -> List[ast.AST]:
    """The targets of ``a, (b, c) = ...`` one by one."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in _unpacked(elt.value if isinstance(elt, ast.Starred) else elt)]
    return [target]


def binding_site(filename: str, name: str) -> Site:
    """The first module-level binding of ``name`` in ``filename`` (line 1 when none is found)."""
    path = os.path.abspath(filename)
    found = sites.tree_of(path)
    if found is None:
        return Site(path, 1, 1, 1, 1)
    for node in found[0].body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        for t in targets:
            if isinstance(t, ast.Name) and t.id == name:
                return Site(path, t.lineno, t.col_offset + 1, t.end_lineno, t.end_col_offset + 1)
    return Site(path, 1, 1, 1, 1)


def asserted(name: str, files: List[str]) -> bool:
    """Whether an assertion in ``files`` checks ``name`` (a variable, or an attribute so named):
    an ``assert`` statement or a call of an ``assert...`` function (``self.assertEqual``,
    ``np.testing.assert_allclose``) that reads it, directly or through a variable assigned from
    it (``n = len(log)``).  That is code counting its traces on purpose (a test of the
    compilation cache), not a count that goes wrong."""
    for filename in files:
        found = sites.tree_of(filename)
        if found is None:
            continue
        checked, derived = set(), set()
        for node in ast.walk(found[0]):
            if isinstance(node, ast.Assert):
                checked |= names_read(node.test)
            elif isinstance(node, ast.Call) and sites.callee(node)[1].startswith("assert"):
                for arg in [*node.args, *(k.value for k in node.keywords)]:
                    checked |= names_read(arg)
            elif isinstance(node, ast.Assign) and name in names_read(node.value):
                derived |= {t.id for target in node.targets for t in _unpacked(target) if isinstance(t, ast.Name)}
        if name in checked or derived & checked:
            return True
    return False


def code_objects(code: types.CodeType) -> Iterator[types.CodeType]:
    """``code`` and the code of the functions, lambdas and comprehensions inside it."""
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from code_objects(const)


def names_read(node: ast.AST) -> set:
    """The names ``node`` reads, calls or passes on: ``f``, ``obj.f(...)``, ``f`` as an argument."""
    return {n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(node) if isinstance(n, (ast.Name, ast.Attribute))}


def staged(value, tracer) -> bool:
    """A tracer of a trace that stages a program (jit and the lax loops' bodies), whose code
    runs once per compilation; an eager transform's tracer runs on every call."""
    return isinstance(value, tracer) and any(c.__name__ == "DynamicJaxprTracer" for c in type(value).__mro__)


def tracer_path(value, tracer, depth: int = 0, all_over: bool = False) -> Optional[str]:
    """Where in ``value`` a tracer is: "" for the value itself, ``.params``, ``[0]``,
    ``.cache['x']``; None when none is within three steps (a hundred items a step).
    ``all_over``: the scope has ended, so no transformation is running and every tracer has
    escaped (JAX leaves a finished linearization's trace marked valid)."""
    if isinstance(value, tracer) and all_over:
        return ""
    if isinstance(value, tracer):
        # Escaped: the tracer's trace is over.  JAX marks an eager transform's trace invalid when
        # it ends (a grad still running, whose custom rule sees its tracers, is valid), but not a
        # staging trace's; the scans run with no trace staging, so a staged tracer has escaped.
        is_valid = getattr(getattr(value, "_trace", None), "is_valid", None)
        live = is_valid is not None and is_valid() and not staged(value, tracer)
        return None if live else ""
    if depth >= 3 or value is None:
        return None
    if isinstance(value, types.FunctionType):  # a closure made in the trace keeps its tracers
        held = [(f"<{n}>", cell_value(c)) for n, c in zip(value.__code__.co_freevars, value.__closure__ or ())]
    else:
        held = entries(value) or ()
    for step, item in held:
        rest = tracer_path(item, tracer, depth + 1, all_over)
        if rest is not None:
            return step + rest
    return None
