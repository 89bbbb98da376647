"""Closures made inside a trace that hold tracers.

A ``lambda``, a nested ``def`` or a ``functools.partial`` built while JAX traces a function
keeps the values it reads from the enclosing function: the tracers of that trace.  Called after
the trace has ended (it was stored on an outer object, or handed out of ``eqx.filter_jit``,
which returns non-array outputs as they are), it computes with tracers of a finished trace and
JAX raises ``UnexpectedTracerError``.  A closure that reads only Python values, NumPy constants
or module-level arrays is an ordinary function.
"""

from __future__ import annotations

from typing import Dict, FrozenSet, Optional

import libcst as cst

from jaxlint.analysis.syntax.fast_walk import FastVisitor
from jaxlint.analysis.syntax.nodes import target_names
from jaxlint.analysis.syntax.scopes import FuncInfo
from jaxlint.analysis.traced.values import TRACED, Val


class _Names(FastVisitor):
    """Names read in a function, and names bound anywhere in it (parameters of it and of the
    functions nested in it, assignment, loop and ``with`` targets, comprehension variables)."""

    def __init__(self):
        self.read: set = set()
        self.bound: set = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.read.add(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        self.walk(node.value)
        return False

    def visit_Param(self, node: cst.Param) -> None:
        self.bound.add(node.name.value)

    visit_FunctionDef = visit_Param

    def _binds(self, node) -> None:
        self.bound.update(target_names(node.name if isinstance(node, cst.AsName) else node.target))

    visit_AssignTarget = visit_AnnAssign = visit_AugAssign = visit_For = visit_CompFor = visit_AsName = visit_NamedExpr = _binds

    def _declares(self, node) -> None:
        self.bound.update(n.name.value for n in node.names)

    visit_Global = visit_Nonlocal = _declares


def free_names(f: FuncInfo, cache: Dict[int, FrozenSet[str]]) -> FrozenSet[str]:
    """The names ``f`` reads from the functions around it (computed once per function; the
    cache lives as long as the module's analysis)."""
    key = id(f.node)
    known = cache.get(key)
    if known is None:
        v = _Names()
        v.walk(f.node.params)
        v.walk(f.node.body)
        known = cache[key] = frozenset(v.read - v.bound)
    return known


def captured_tracer(v: Val, cache: Dict[int, FrozenSet[str]]) -> Optional[str]:
    """The name of a tracer that the closure ``v`` holds: a variable of the enclosing traced
    function it reads, or an argument ``functools.partial`` bound.  None for any other value,
    and for a function of the module (it holds no trace's values)."""
    fn = v.fn
    if fn is None:
        return None
    ref, closure, bound_pos, bound_kw = fn
    for b in list(bound_pos) + list(bound_kw.values()):
        if isinstance(b, Val) and b.kind == TRACED:
            return b.name or "a bound argument"
    if not closure:
        return None
    f = ref.func
    if f is None or getattr(f, "node", None) is None:
        return None
    for name in sorted(free_names(f, cache)):
        for env in closure:
            val = env.get(name)
            if val is not None:
                if val.kind == TRACED:
                    return name
                break
    return None
