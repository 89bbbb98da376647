"""Tracers that outlive their trace: closures made inside a trace that hold them, and memos
filled with them.

A ``lambda``, a nested ``def`` or a ``functools.partial`` built while JAX traces a function
keeps the values it reads from the enclosing function: the tracers of that trace.  Called after
the trace has ended (it was stored on an outer object, or handed out of ``eqx.filter_jit``,
which returns non-array outputs as they are), it computes with tracers of a finished trace and
JAX raises ``UnexpectedTracerError``.  A closure that reads only Python values, NumPy constants
or module-level arrays is an ordinary function.

A memo that outlives the trace (``if self._key is None: self._key = make_key()`` on an object
made outside it, a module-level cache) filled there with a tracer hands that tracer back on
every later read: the next call after the trace has ended computes with it.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.syntax.fast_walk import FastVisitor
from jaxlint.analysis.syntax.functions import free_names
from jaxlint.analysis.syntax.memo_guards import memoised
from jaxlint.analysis.traced.values import MADE_IN_TRACE, STATIC, TRACED, Val, carries_tracer


def captured_tracer(v: Val, analyzer) -> Optional[str]:
    """The name of a tracer that the closure ``v`` holds: a variable of the enclosing traced
    function it reads (``free_names``, computed once per function), or an argument
    ``functools.partial`` bound.  None for any other value, and for a function of the module
    (it holds no trace's values)."""
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
    names = analyzer.free_names.get(id(f.node))
    if names is None:
        names = analyzer.free_names[id(f.node)] = sorted(free_names(analyzer.index, f.node))
    for name in names:
        for env in closure:
            val = env.get(name)
            if val is not None:
                if val.kind == TRACED:
                    return name
                break
    return None


def holds_tracer(v: Val, analyzer) -> bool:
    """A tracer, an object the trace built that keeps one, or a closure that holds one."""
    return carries_tracer(v) or captured_tracer(v, analyzer) is not None


def fills_memo(interp, target, base: Val, v: Val, stmt) -> bool:
    """Does storing ``v`` into ``target`` (a name, attribute or item) fill a memo that outlives
    the trace with a tracer?  The memo is state the trace did not make (a global, a closure
    variable, an object from outside the trace) and the store runs only when a lookup of it
    missed, so later runs read the stored tracer instead of making a new one."""
    frame = interp.frame
    if not holds_tracer(v, interp.analyzer):
        return False
    root = target
    while isinstance(root, (cst.Attribute, cst.Subscript)):
        root = root.value
    if not isinstance(root, cst.Name):
        return False
    if root is not target:
        held = frame.lookup(root.value)
        outer = base.outer is not None or (held is not None and held.outer is not None)
        if not outer and not (root.value in frame.declared or held is None or held.kind == STATIC and held.cls is not None and not held.flags & MADE_IN_TRACE):
            return False
    elif root.value not in frame.declared:
        return False
    scope = frame.func.body_scope
    m = interp.analyzer.module_ctx
    return scope is not None and memoised(m, stmt, scope) and not _filled_before(m, frame.entry, frame.func.name)


def _filled_before(m, entry, name: str) -> bool:
    """Does the function that applies the transform run ``name`` (the memo's filler: a call
    ``name(...)``, a property read ``obj.name``) before it does?  Run on the host, it filled
    the memo with a concrete value, and the trace finds it filled."""
    host = entry.site_scope
    if host is None or host.kind != "function" or entry.site is None:
        return False
    at = m.spans.get(entry.site)
    if at is None:
        return False
    uses = _Uses(name)
    uses.walk(host.node.body)
    # (the spans number a block's later statements first: what comes before the site in the
    # source is numbered after all of it)
    return any(m.spans.get(u) is not None and m.spans.get(u)[0] > at[1] for u in uses.found)


class _Uses(FastVisitor):
    """``name(...)`` calls and ``x.name`` reads."""

    def __init__(self, name: str):
        self.name = name
        self.found: list = []

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value == self.name:
            self.found.append(node)

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value == self.name:
            self.found.append(node)
