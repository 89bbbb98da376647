"""A ``jax.tree_util.Partial`` passed into a traced function: what calling it there does.

``Partial(f, *args, **kw)`` binds like ``functools.partial`` (it is a subclass of it), and it
is a pytree (``jax/_src/tree_util.py`` registers it): the children are ``(args, keywords)``,
so every bound argument and keyword value is a leaf, and ``f`` is the aux data, static and
compared by equality (a plain function by identity).  Passed to ``jax.jit`` for a traced
parameter, the object the body receives is a new ``Partial`` of the same ``f`` whose bound
values are tracers: ``Partial(scale, 2.0)`` calls ``scale`` with a traced ``2.0`` (checked
with jax 0.10.2: a Python ``if`` on it raises TracerBoolConversionError).  ``None`` is an
empty pytree and stays ``None``.

Only a ``Partial`` every visible call site passes for the parameter, of the same function of
the module with the same number of bound arguments and the same keywords, is followed: two
sites that disagree leave the parameter what it was (a tracer, calling which is unknown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import libcst as cst

from jaxlint.analysis.model.callee_values import Target
from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.model.transforms import Application, FnRef
from jaxlint.analysis.syntax.nodes import is_none_literal
from jaxlint.analysis.syntax.scopes import Scope
from jaxlint.analysis.traced.from_host import structure_of
from jaxlint.analysis.traced.values import ARRAY, KNOWN_CONSTANTS, RAW, STATIC, TRACED, UNKNOWN, Val, to_traced

if TYPE_CHECKING:  # pragma: no cover
    from jaxlint.analysis.traced.calls import Analyzer

TREE_PARTIAL = "jax.tree_util.Partial"


def _partial_call(expr, scope: Scope) -> Optional[cst.Call]:
    """The ``Partial(...)`` call ``expr`` is, directly or through a name bound to it once."""
    for _ in range(4):
        if isinstance(expr, cst.Call):
            return expr if resolve(expr.func, scope) == TREE_PARTIAL else None
        found = scope.sole_binding(expr.value) if isinstance(expr, cst.Name) else None
        if found is None:
            return None
        expr, scope = found
    return None


def _shape(t: Target) -> tuple:
    return (id(t.func.node), len(t.bound), tuple(sorted(k for k, _ in t.keywords)))


def _leaf(expr, scope: Scope, name: str) -> Val:
    """A bound value as the traced body receives it, flattened and rebuilt by JAX: ``None``
    (an empty pytree) stays ``None``; a number is a traced scalar; a tuple, list or dict the
    literal shows keeps its structure, with traced leaves; anything else is a tracer that may
    be a container (its bare truthiness is then no bool conversion)."""
    if is_none_literal(expr):
        return KNOWN_CONSTANTS["None"]
    number = expr.expression if isinstance(expr, cst.UnaryOperation) else expr
    if isinstance(number, (cst.Integer, cst.Float)):
        return Val(TRACED, name, ARRAY)
    structure = structure_of(expr, scope)
    if structure.kind == UNKNOWN:
        return Val(TRACED, name, RAW)
    return to_traced(structure).renamed(name, 0)


def passed_tree_partial(analyzer: "Analyzer", app: Application, name: str) -> Optional[Val]:
    """The value of parameter ``name`` of the traced function when every visible call site
    passes a ``jax.tree_util.Partial`` of one plain function of the module for it (see the
    module docstring); None otherwise."""
    ct = analyzer.finder.call_targets
    found: Optional[Target] = None
    sites = analyzer.passed_arguments(app, name)
    if not sites:
        return None
    for _call, scope, arg in sites:
        if arg is None:
            return None
        made = _partial_call(arg.value, scope)
        if made is None:
            return None
        t = ct.value(made, scope)
        if t is None or t.app is not None or t.closure is not None or t.func.is_method or t.func.scope.kind != "module":
            return None
        if found is not None and _shape(found) != _shape(t):
            return None
        if found is None:
            found = t
    params = [p.name.value for p in found.func.positional_params()]
    if any(p.expr is None or p.scope is None for p in found.bound) or any(p.expr is None or p.scope is None for _k, p in found.keywords):
        return None
    bound = [_leaf(p.expr, p.scope, params[i] if i < len(params) else name) for i, p in enumerate(found.bound)]
    keywords = {k: _leaf(p.expr, p.scope, k) for k, p in found.keywords}
    # the object itself is a Python ``Partial``, rebuilt around the tracers: not an array
    return Val(STATIC, name, 0, None, (FnRef(found.func), None, bound, keywords))
