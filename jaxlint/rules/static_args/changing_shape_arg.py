"""JAX205: a jitted callable called in a loop with an argument whose shape follows the loop."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.scopes import FastVisitor
from jaxlint.analysis.transforms import resolve
from jaxlint.analysis.static_arguments import arguments_by_parameter
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import recompiles

# Constructors whose shape is their first argument (or, for arange/linspace, a count).
SHAPE_FIRST = frozenset({"zeros", "ones", "empty", "full", "eye", "identity"})
COUNT_ARGS = {"arange": (0, 1, 2), "linspace": (2,)}
ARRAY_MODULES = ("jax.numpy.", "numpy.")


class ChangingShapeArg(Rule):
    """
    What it does
        Flags a call of a jitted function inside a ``for i in range(...)`` loop whose argument
        has a shape that depends on the loop counter: a slice bounded by it (``f(x[:i])``) or an
        array built with it as a size (``f(jnp.zeros(i))``, ``f(jnp.arange(i))``).  A window of
        fixed width (``x[i:i + 8]``) and an index (``x[i]``) keep their shape and are not
        flagged.

    Why is this bad?
        ``jax.jit`` caches a compilation per input shape.  A shape that changes every
        iteration means a new trace and compilation every iteration, which is usually slower
        than not using ``jit`` at all.

    Example
        for i in range(1, 100):
            loss = loss_fn(params, data[:i])

    Use instead
        Pad to a fixed shape and pass a mask (or the valid length as a traced value), or bucket
        the lengths into a few sizes so that only a few shapes are ever compiled.

    References
        https://docs.jax.dev/en/latest/jit-compilation.html#caching
    """

    code = "JAX205"
    name = "changing-shape-arg"
    message = "argument `{arg}` of {func}() changes shape with the loop variable `{var}`: a new compilation on every iteration"
    fix = "pad `{arg}` to a fixed shape (with a mask or a traced length), or bucket the sizes"
    prevents = recompiles()
    bad = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def total(x):
            return x.sum()

        data = jnp.arange(10.0)
        for i in range(1, 4):
            total(data[:i])  # error: JAX205
            total(jnp.zeros(i))  # error: JAX205
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def total(x):
            return x.sum()

        data = jnp.arange(10.0)
        for i in range(3):
            total(data[i : i + 4])
            total(data[i])
            total(jnp.zeros(4) + i)
        """
    ]

    def check_module(self, m):
        where = {id(c): (s, o) for c, s, o in m.index.calls}
        for app in m.finder.applications:
            if not app.transform.cached:
                continue
            statics, opaque = m.analyzer.static_names(app)
            if opaque:
                continue
            pos = app.jit_positional()
            for call in m.analyzer.call_sites(app):
                so = where.get(id(call))
                if so is None:
                    continue
                scope, order = so
                counters = _loop_counters(scope, order)
                if not counters:
                    continue
                for a, pname in arguments_by_parameter(app, call, pos):
                    if pname is None or pname in statics:
                        continue
                    var = _shape_follows(a.value, counters, scope)
                    if var is not None:
                        m.report(self, a.value, arg=a.value, func=app.func.name, var=var)


def _loop_counters(scope, order: int) -> set:
    """Names counted by ``for name in range(...)`` / ``enumerate(...)`` loops around ``order``."""
    out = set()
    for name, binds in scope.bindings.items():
        for b in binds:
            if b.kind != "for" or b.order is None or not isinstance(b.value, cst.For):
                continue
            loop = b.value
            it = loop.iter
            if not (isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value in ("range", "enumerate")):
                continue
            if scope.lookup_scope(it.func.value) is not None:
                continue  # a local function shadows the builtin
            t = loop.target
            counted = (it.func.value == "range" and isinstance(t, cst.Name) and t.value == name) or (
                it.func.value == "enumerate"
                and isinstance(t, cst.Tuple)
                and t.elements
                and isinstance(t.elements[0].value, cst.Name)
                and t.elements[0].value.value == name
            )
            if counted and any(start == b.order and start <= order <= end for start, end in scope.loops):
                out.add(name)
    return out


class _Mentions(FastVisitor):
    def __init__(self, names):
        self.names = names
        self.found: Optional[str] = None

    def visit_Name(self, node: cst.Name) -> None:
        if self.found is None and node.value in self.names:
            self.found = node.value


def _mentions(expr, names) -> Optional[str]:
    if expr is None:
        return None
    v = _Mentions(names)
    v.walk(expr)
    return v.found


def _shape_follows(expr, counters: set, scope) -> Optional[str]:
    """The loop counter the shape of ``expr`` depends on, or None."""
    if isinstance(expr, cst.Subscript):
        for el in expr.slice:
            s = el.slice
            if isinstance(s, cst.Slice):
                lower, upper = _mentions(s.lower, counters), _mentions(s.upper, counters)
                if s.step is not None and _mentions(s.step, counters):
                    return _mentions(s.step, counters)
                # Both bounds moving with the counter: a window, usually of fixed width.
                if (lower is None) != (upper is None):
                    return lower or upper
        return None
    if isinstance(expr, cst.Call):
        q = resolve(expr.func, scope)
        if q is None:
            return None
        for prefix in ARRAY_MODULES:
            if q.startswith(prefix):
                name = q[len(prefix) :]
                positional = [a.value for a in expr.args if a.keyword is None and not a.star]
                keywords = {a.keyword.value: a.value for a in expr.args if a.keyword is not None}
                if name in SHAPE_FIRST:
                    shape = positional[0] if positional else keywords.get("shape", keywords.get("N"))
                    return _mentions(shape, counters)
                if name in COUNT_ARGS:
                    args = [positional[k] for k in COUNT_ARGS[name] if k < len(positional)]
                    args += [keywords[k] for k in ("num", "stop", "start") if k in keywords]
                    if name == "arange" and len(positional) >= 2:
                        # arange(i, i + n) has a fixed length: only a one-sided bound changes it.
                        lo, hi = _mentions(positional[0], counters), _mentions(positional[1], counters)
                        return (lo or hi) if (lo is None) != (hi is None) else None
                    for a in args:
                        found = _mentions(a, counters)
                        if found is not None:
                            return found
        return None
    return None
