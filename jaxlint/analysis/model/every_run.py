"""The calls a function makes on every run: where a wrapper hands its parameters on.

A wrapper forwards its parameters to a callable when the call runs each time the wrapper runs.
That is the case for a call in a statement of the wrapper's body (``return step(x)``,
``out = step(x)``, ``step(x)``) that no earlier statement can skip: nothing before it returns,
raises or leaves a loop, and every block around it runs (a ``with`` block, or a ``for`` loop
over a list the code shows is not empty: ``for stage in self.stages`` with ``self.stages =
[Stage(step)]``).  The search ends at the first ``if``, ``while``, ``try`` or other compound
statement: it may return, and what it holds may not run.

Whether the wrapper returns what the call returns is decided separately, for the calls that
turn out to forward (:func:`returns_result`): ``return step(x)``, or ``out = step(x)`` with
``out`` bound nowhere else and ``return out`` the body's one ``return``, at its end.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.syntax.functions import own_returns
from jaxlint.analysis.syntax.scopes import FuncInfo, Scope

_MAX_DEPTH = 4
_EXITS = (cst.Return, cst.Raise, cst.Break, cst.Continue)


def calls_on_every_run(g: FuncInfo, targets) -> List[Tuple[cst.Call, Optional[str]]]:
    """(call, where its result goes) for each call ``g`` makes on every run, in the order of
    the body: "" for ``return call``, the name for ``name = call``, None otherwise (see
    :func:`returns_result`).  ``targets``: the module's call targets (what the methods set an
    attribute to, and whether other code writes it)."""
    node = g.node
    if isinstance(node, cst.Lambda) or not isinstance(node.body, cst.IndentedBlock) or g.body_scope is None:
        return []
    out: List[Tuple[cst.Call, Optional[str]]] = []
    _block(node.body.body, g.body_scope, targets, out)
    return out


def returns_result(g: FuncInfo, held: Optional[str]) -> bool:
    """Does ``g`` return the result of its call whose result goes to ``held``?"""
    if held == "":
        return True  # ``return step(x)``
    if not held or g.body_scope.only_binding(held) is None:
        return False
    return _returned_name(g.node) == held


def _block(stmts, scope: Scope, targets, out) -> bool:
    """Collect the calls of ``stmts`` that run whenever the block runs; False once a statement
    may leave the block early or may not run (the statements after it may not run).  Any
    compound statement but ``with`` and a ``for`` over a non-empty list ends the search: an
    ``if``, ``while`` or ``try`` may hold a ``return``, and what it holds may not run."""
    for st in stmts:
        t = type(st)
        if t is cst.SimpleStatementLine:
            for small in st.body:
                call, held = _statement_call(small)
                if call is not None:
                    out.append((call, held))
                if isinstance(small, _EXITS):
                    return False
            continue
        if t is cst.FunctionDef or t is cst.ClassDef:
            continue
        if t is cst.With and type(st.body) is cst.IndentedBlock:
            if not _block(st.body.body, scope, targets, out):
                return False
            continue
        if t is cst.For and st.orelse is None and type(st.body) is cst.IndentedBlock and not st.asynchronous:
            if _non_empty(st.iter, scope, targets, 0) and _block(st.body.body, scope, targets, out):
                continue
        return False
    return True


def _statement_call(small) -> Tuple[Optional[cst.Call], Optional[str]]:
    """The call a simple statement makes as a whole, and where its result goes: "" for
    ``return call``, the name for ``name = call``, None otherwise."""
    value = getattr(small, "value", None)
    if not isinstance(value, cst.Call):
        return None, None
    if isinstance(small, cst.Return):
        return value, ""
    if isinstance(small, cst.Assign):
        if len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            return value, small.targets[0].target.value
        return value, None
    if isinstance(small, (cst.Expr, cst.AnnAssign)):
        return value, None
    return None, None


def _returned_name(node) -> Optional[str]:
    """``out`` when the body's only ``return`` is ``return out``, its last statement."""
    found = own_returns(node)
    last = node.body.body[-1] if node.body.body else None
    if len(found) != 1 or not isinstance(last, cst.SimpleStatementLine) or found[0] is not last.body[-1]:
        return None
    value = found[0].value
    return value.value if isinstance(value, cst.Name) else None


def _non_empty(expr, scope: Scope, targets, depth: int) -> bool:
    """The code shows ``expr`` is a list or tuple with at least one element: a literal, a name
    bound once to one, ``self.attr`` every method sets to one (and nothing else writes)."""
    if depth > _MAX_DEPTH:
        return False
    if isinstance(expr, (cst.List, cst.Tuple)):
        return any(not isinstance(el, cst.StarredElement) for el in expr.elements)
    if isinstance(expr, cst.Name):
        found = scope.sole_binding(expr.value, mutable=True)
        return found is not None and _non_empty(*found, targets, depth + 1)
    if isinstance(expr, cst.Attribute):
        cls, _exact = targets.members.self_class(expr.value, scope)
        attr = expr.attr.value
        if cls is None or not targets.members.attribute_kept(cls, attr):
            return False
        writes = targets.finder.receivers.attribute_values(cls, attr)
        return bool(writes) and all(w is not None and _non_empty(w, s, targets, depth + 1) for w, s in writes)
    return False
