"""Where a jitted function made in a function is run: where JAX compiles it.

A jitted callable compiles when it is called, not where ``jax.jit`` makes it: at a call by a
name it is bound to, at a lax primitive it is handed to as the function it runs
(``lax.fori_loop(0, n, step, init)`` traces ``step`` there and then), or, once stored on the
object (``self._step = step``), at a call through that attribute in a method of the class."""

from __future__ import annotations

from typing import FrozenSet, List, Set, Tuple

import libcst as cst

from jaxlint.analysis.syntax.fast_walk import FastVisitor
from jaxlint.analysis.syntax.nodes import argument_at


def uses(m, scope, names, span) -> List[Tuple[cst.Call, int]]:
    """[(call, order)] of the calls in ``scope`` within the order ``span`` that run a jitted
    function held by one of ``names``: its own calls, and the lax primitives it is handed to."""
    start, end = span
    out = []
    for c, s, o in m.index.calls:
        if s is not scope or not start <= o <= end:
            continue
        if isinstance(c.func, cst.Name) and c.func.value in names:
            out.append((c, o))
            continue
        found = m.finder.transform_of(c.func, scope)
        if found is not None and (found[0].loops or found[0].branch) and any(
            isinstance(fn, cst.Name) and fn.value in names for fn in (argument_at(c.args, *p) for p in found[0].fn_args)
        ):
            out.append((c, o))
    return out


def attribute_stores(m, scope, names, made=None) -> Tuple[FrozenSet[str], List[cst.Call]]:
    """(the attributes of ``self`` the method ``scope`` stores one of ``names`` in, or the
    object the expression ``made`` makes (``self._step = jax.jit(self._apply)``), the calls
    through them in the methods of its class, in the order of the file)."""
    func = scope.func if scope.kind == "function" else None
    if func is None or func.cls is None or not func.is_method:
        return frozenset(), []
    positional = func.positional_params()
    if not positional:
        return frozenset(), []
    walk = _Stores(positional[0].name.value, names, made)
    walk.walk(func.node.body)
    if not walk.attributes:
        return frozenset(), []
    out = []
    for c, s, _o in m.index.calls:
        caller = s.func if s.kind == "function" else None
        if caller is None or caller.cls is not func.cls or not caller.is_method or not caller.positional_params():
            continue
        own = caller.positional_params()[0].name.value
        f = c.func
        if isinstance(f, cst.Attribute) and isinstance(f.value, cst.Name) and f.value.value == own and f.attr.value in walk.attributes:
            out.append(c)
    out.sort(key=lambda c: (m.positions.get(c).start.line, m.positions.get(c).start.column) if m.positions.get(c) is not None else (0, 0))
    return frozenset(walk.attributes), out


class _Stores(FastVisitor):
    """``<receiver>.<attribute> = <one of names>`` (or ``= <made>``) in a method's own body."""

    def __init__(self, receiver: str, names: Set[str], made=None):
        self.receiver = receiver
        self.names = names
        self.made = made
        self.attributes: Set[str] = set()

    def visit_Assign(self, node) -> None:
        if node.value is self.made or isinstance(node.value, cst.Name) and node.value.value in self.names:
            for t in node.targets:
                target = t.target
                if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == self.receiver:
                    self.attributes.add(target.attr.value)

    def visit_FunctionDef(self, node) -> bool:
        return False

    def visit_Lambda(self, node) -> bool:
        return False
