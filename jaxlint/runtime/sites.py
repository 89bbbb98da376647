"""Where in the user's code something happened, and which rule it belongs to.

A *site* is a span of one line of the user's source: the expression Python was evaluating in
the user's innermost frame (``co_positions``, Python 3.11+).  Which rule a JAX error belongs to
comes from the rules themselves: every rule says which errors it prevents
(``jaxlint/rules/prevents.py``).  When several rules prevent the same error (a
``TracerBoolConversionError`` is JAX101 in an ``if``, JAX102 in a ``while``, JAX105 in an
``assert``), the syntax that encloses the site decides, read with :mod:`ast`.
"""

from __future__ import annotations

import ast
import functools
import os
import site
import sysconfig
from typing import Iterator, List, NamedTuple, Optional, Sequence, Tuple


class Site(NamedTuple):
    path: str  # absolute
    line: int  # 1-based
    column: int  # 1-based
    end_line: int
    end_column: int  # 1-based, exclusive


def _library_dirs() -> Tuple[str, ...]:
    """Folders whose code is never the user's: the standard library, installed packages, and
    jaxlint itself."""
    dirs = {sysconfig.get_path("stdlib"), sysconfig.get_path("platstdlib"), sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    dirs.update(site.getsitepackages() if hasattr(site, "getsitepackages") else ())
    dirs.add(site.getusersitepackages() if hasattr(site, "getusersitepackages") else "")
    dirs.add(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the jaxlint package
    return tuple(os.path.realpath(d) + os.sep for d in dirs if d)


class UserCode:
    """Which files are the user's: under one of ``roots`` (the project: pytest's root folder,
    or the working folder of ``jaxlint run`` and its script's folder), and not installed
    (a virtual environment inside the project is not the user's code)."""

    def __init__(self, roots: Sequence[str]):
        self.roots = tuple(os.path.realpath(r) + os.sep for r in roots)
        self.libraries = _library_dirs()
        self.owns = functools.lru_cache(maxsize=None)(self._owns)

    def _owns(self, filename: str) -> bool:
        if not filename or filename.startswith("<"):
            return False
        real = os.path.realpath(filename)
        return real.startswith(self.roots) and not real.startswith(self.libraries)


def frame_site(code, lasti: int, lineno: Optional[int]) -> Optional[Site]:
    """The span of the instruction at ``lasti`` of ``code``; the line alone when Python does
    not know the columns."""
    try:
        positions = list(code.co_positions())
        line, end_line, col, end_col = positions[lasti // 2]
    except (AttributeError, IndexError, ValueError):
        line = end_line = lineno
        col = end_col = None
    if line is None:
        line = end_line = lineno
    if line is None:
        return None
    if col is None or end_col is None:
        return Site(os.path.abspath(code.co_filename), line, 1, line, 1)
    if end_line != line:  # findings span one line; the start is what a reader looks for
        end_line, end_col = line, col + 1
    return Site(os.path.abspath(code.co_filename), line, col + 1, end_line, end_col + 1)


def user_frame(frame, user: UserCode):
    """The innermost frame of the user's code on the live stack from ``frame`` outwards."""
    while frame is not None and not user.owns(frame.f_code.co_filename):
        frame = frame.f_back
    return frame


def running(call, lasti: int, frame) -> bool:
    """Whether the frame ``call`` is on the stack from ``frame`` outwards, still at ``lasti``."""
    while frame is not None:
        if frame is call:
            return frame.f_lasti == lasti
        frame = frame.f_back
    return False


def stack_site(frame, user: UserCode) -> Optional[Site]:
    """Where the innermost user frame of the live stack from ``frame`` outwards is."""
    frame = user_frame(frame, user)
    return None if frame is None else frame_site(frame.f_code, frame.f_lasti, frame.f_lineno)


def call_path(frame, user: UserCode) -> Tuple[Tuple[str, int], ...]:
    """The user's frames on the live stack from ``frame`` outwards, as (file, line): the path
    by which the user's code reached a call.  One path that traces a function again recompiles;
    two paths (a model's ``init`` and its ``apply``) that trace it once each do not."""
    path = []
    while frame is not None:
        if user.owns(frame.f_code.co_filename):
            path.append((frame.f_code.co_filename, frame.f_lineno))
        frame = frame.f_back
    return tuple(path)


def raise_site(frame, user: UserCode, jax_dirs: Tuple[str, ...]) -> Optional[Site]:
    """Where a JAX error being built at ``frame`` was raised from, when that is the user's own
    code: the first frame outside JAX.  A library that probes a value and catches the error
    itself (``try: int(x) except ...``) raises it from its own code: not the user's bug."""
    while frame is not None:
        filename = frame.f_code.co_filename
        if not os.path.realpath(filename).startswith(jax_dirs):
            return frame_site(frame.f_code, frame.f_lasti, frame.f_lineno) if user.owns(filename) else None
        frame = frame.f_back
    return None


def traceback_site(tb, user: UserCode) -> Optional[Site]:
    """The innermost user frame an exception passed through."""
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if user.owns(code.co_filename):
            found = frame_site(code, tb.tb_lasti, tb.tb_lineno)
        tb = tb.tb_next
    return found


# ---------------------------------------------------------------------------------------------
# The syntax around a site


@functools.lru_cache(maxsize=256)
def parsed(path: str, mtime: float) -> Optional[Tuple[ast.AST, dict]]:
    try:
        with open(path, "rb") as fh:
            tree = ast.parse(fh.read(), path)
    except (OSError, SyntaxError, ValueError):
        return None
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    return tree, parents


def tree_of(path: str) -> Optional[Tuple[ast.AST, dict]]:
    """The syntax tree of the file at ``path`` and each node's parent, as it is now (parsed once
    per version of the file); None when it cannot be read or parsed."""
    try:
        return parsed(os.path.abspath(path), os.path.getmtime(path))
    except OSError:
        return None


def _innermost(tree: ast.AST, s: Site) -> Optional[ast.AST]:
    """The smallest node whose span holds the site's start."""
    best = None
    for node in ast.walk(tree):
        if not hasattr(node, "lineno") or node.end_lineno is None:
            continue
        start = (node.lineno, node.col_offset + 1)
        end = (node.end_lineno, node.end_col_offset + 1)
        if start <= (s.line, s.column) and (s.end_line, s.end_column) <= end:
            if best is None or (start >= (best.lineno, best.col_offset + 1) and end <= (best.end_lineno, best.end_col_offset + 1)):
                best = node
    return best


def _enclosing(s: Site) -> Iterator[Tuple[ast.AST, Optional[ast.AST]]]:
    """(node, the child the site is under), from the site's own node outwards."""
    parsed_file = tree_of(s.path)
    if parsed_file is None:
        return
    tree, parents = parsed_file
    node, child = _innermost(tree, s), None
    while node is not None:
        yield node, child
        node, child = parents.get(node), node


_CONVERSIONS = {"int", "float", "bool", "complex", "index"}
_CONVERSION_METHODS = {"item", "tolist", "__int__", "__float__", "__bool__", "__index__"}


def callee(call: ast.Call) -> Tuple[str, str]:
    """(the base name, the attribute) of ``call``'s function: ``np.exp`` -> ("np", "exp")."""
    f = call.func
    if isinstance(f, ast.Name):
        return "", f.id
    if isinstance(f, ast.Attribute):
        base = f.value
        while isinstance(base, ast.Attribute):
            base = base.value
        return (base.id if isinstance(base, ast.Name) else ""), f.attr
    return "", ""


def site_kinds(s: Site) -> List[str]:
    """What the code at ``s`` does with the value, innermost first: ``if``, ``while``,
    ``assert``, ``bool-op``, ``range``, ``index``, ``conversion``, ``numpy``, ``format``, or
    ``call`` (any other call)."""
    kinds: List[str] = []
    for node, child in _enclosing(s):
        if isinstance(node, (ast.If, ast.IfExp)) and child is node.test:
            kinds.append("if")
        elif isinstance(node, ast.comprehension) and child in node.ifs:
            kinds.append("if")
        elif isinstance(node, ast.While) and child is node.test:
            kinds.append("while")
        elif isinstance(node, ast.Assert) and child is node.test:
            kinds.append("assert")
        elif isinstance(node, ast.BoolOp) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
            kinds.append("bool-op")
        elif isinstance(node, ast.Compare) and any(isinstance(o, (ast.In, ast.NotIn)) for o in node.ops):
            kinds.append("bool-op")
        elif isinstance(node, ast.Subscript) and child is node.slice:
            kinds.append("index")
        elif isinstance(node, ast.FormattedValue):
            kinds.append("format")
        elif isinstance(node, ast.Call):
            base, name = callee(node)
            if name == "range" and not base:
                kinds.append("range")
            elif name in ("min", "max") and not base:
                kinds.append("bool-op")
            elif (name in _CONVERSIONS and base in ("", "operator")) or name in _CONVERSION_METHODS or base == "math":
                kinds.append("conversion")
            elif base in ("np", "numpy", "onp"):
                kinds.append("numpy")
            else:
                kinds.append("call")
        elif isinstance(node, ast.stmt):
            break  # the statement is as far as the value's use reaches
    return kinds


def caught_on_purpose(s: Site, class_names: Sequence[str]) -> bool:
    """Whether the code at ``s`` sits in a ``try`` of its own function with a handler that
    catches the error (``except jax.errors.ConcretizationTypeError``, ``except TypeError``,
    ``except Exception``, a bare ``except``): the code checks on purpose whether a value is
    concrete, and goes on without it.  A ``try`` in a caller (a test, a driver) is not the
    code deciding for itself: the error is still reported there."""
    catches = set(class_names) | {"Exception", "BaseException"}
    for node, child in _enclosing(s):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return False
        if isinstance(node, ast.Try) and child in node.body:
            for handler in node.handlers:
                if handler.type is None:
                    return True
                types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
                for t in types:
                    name = t.attr if isinstance(t, ast.Attribute) else t.id if isinstance(t, ast.Name) else ""
                    if name in catches:
                        return True
    return False


# The rule each kind of site points at, among those that prevent the error.
KIND_RULES = {
    "if": "JAX101",
    "while": "JAX102",
    "assert": "JAX105",
    "bool-op": "JAX106",
    "range": "JAX103",
    "index": "JAX103",
    "conversion": "JAX104",
    "format": "JAX104",
    "numpy": "JAX107",
    "call": "JAX108",  # any other call that needs the value concrete: a shape, a size, a bound
}


def choose(candidates: Sequence[str], kinds: Sequence[str]) -> Optional[str]:
    """The candidate rule the innermost telling site kind names; the lowest code when no kind
    tells them apart."""
    if not candidates:
        return None
    for kind in kinds:
        code = KIND_RULES.get(kind)
        if code in candidates:
            return code
    return sorted(candidates)[0]
