"""JAX401 jit-of-fresh-function."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.scopes import FastVisitor
from jaxlint.analysis.transforms import resolve
from jaxlint.fixes.hoist_jit import hoist_fix, innermost_loop

from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import recompiles


class JitInLoop(Rule):
    """
    What it does
        Flags ``jax.jit`` applied to a fresh function every time it runs and used right away: a
        lambda (or a function defined in the loop) jitted and called inside a loop, or
        ``jax.jit(lambda ...)(args)`` in a function that is itself called in a loop.

    Why is this bad?
        JAX caches compilations by function object.  A new lambda (or nested function) is a new
        object each time, so every call traces and compiles again.

    Example
        def predict(params, x):
            return jax.jit(lambda p, v: p @ v)(params, x)

    Use instead
        Define and jit the function once, at module level or outside the loop, and call the
        jitted function.

    References
        https://jax.readthedocs.io/en/latest/jit-compilation.html#caching
    """

    code = "JAX401"
    name = "jit-of-fresh-function"
    message = "`{api}` of a {what} compiles again every time this runs"
    fix_safety = "unsafe"
    fix = "jit the function once (at module level or outside the loop) and reuse the jitted function"
    prevents = recompiles()
    bad = [
        """
        import jax
        import jax.numpy as jnp

        def predict(params, x):
            return jax.jit(lambda p, v: p @ v)(params, x)  # error: JAX401

        xs = jnp.ones((3, 2))
        for i in range(3):
            double = jax.jit(lambda v: v * 2)  # error: JAX401
            double(xs[i])
            predict(xs, xs[i])
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        matvec = jax.jit(lambda p, v: p @ v)

        def predict(params, x):
            return matvec(params, x)

        def scale(v):
            return v * 2

        xs = jnp.ones((3, 2))
        for i in range(3):
            jax.jit(scale)(xs[i])

        def setup_once(x):
            return jax.jit(lambda v: v + 1)(x)

        table = {n: jax.jit(lambda v, n=n: v * n) for n in range(3)}
        fns = []
        for n in range(3):
            fns.append(jax.jit(lambda v, n=n: v * n))
        """
    ]

    def check_module(self, m):
        called_in_loop = None
        for call, scope, order in m.index.calls:
            fn_expr = call.args[0].value if call.args and call.args[0].keyword is None else None
            if fn_expr is None:
                continue
            found = m.finder.transform_of(call.func, scope)
            if found is None or not found[0].cached or found[1]:
                continue
            if _in_traced_code(scope, m.finder):
                continue  # a loop inside a traced function runs only while that one is traced
            api = resolve(call.func, scope) or "jax.jit"
            loops = [(start, end) for start, end in scope.loops if start <= order <= end]
            fresh = None
            func = None
            if isinstance(fn_expr, cst.Lambda):
                fresh = "lambda created in a loop" if loops else None
                func = m.index.func_by_node.get(id(fn_expr))
            elif isinstance(fn_expr, cst.Name) and loops:
                func = scope.defs.get(fn_expr.value)
                if func is not None and any(start < self._def_order(scope, func) for start, _ in loops):
                    fresh = "function defined inside the loop"
            if fresh is not None and func is not None and _reads_loop_variables(func, scope, loops[-1]):
                # Each iteration jits a different program (it reads the loop's variables): a
                # compilation per iteration is what the code asks for.
                continue
            if fresh is not None:
                # Only when the jitted function is used right there, in the same iteration; a
                # loop that builds a table of jitted functions compiles each one once.
                if m.call_sites.is_called_at_once(call) or self._called_in(call, scope, loops[-1]):
                    m.report(self, call, api=api, what=fresh, autofix=self._hoist(m, call, scope, fn_expr))
                continue
            if isinstance(fn_expr, cst.Lambda) and scope.kind == "function" and m.call_sites.is_called_at_once(call):
                # A lambda jitted and called at once: a new compilation per call of the function,
                # which matters when the function itself runs repeatedly (called in a loop).
                if called_in_loop is None:
                    called_in_loop = m.call_sites.names_called_in_loops()
                if scope.func is not None and scope.func.name in called_in_loop:
                    m.report(self, call, api=api, what="lambda created on every call of the enclosing function")

    @staticmethod
    def _hoist(m, call, scope, fn_expr):
        """The unsafe fix: a lambda that reads none of the loop's variables, jitted before the loop."""
        if not isinstance(fn_expr, cst.Lambda):
            return None
        body = m.module.body if scope.kind == "module" else scope.node.body.body if isinstance(scope.node, cst.FunctionDef) else ()
        loop = innermost_loop(body, call)
        if loop is None:
            return None
        rng = m.positions.get(loop)
        if rng is None:
            return None
        taken = set(m.index.module_scope.bindings) | set(scope.bindings) | set(m.index.module_scope.defs)
        lines = m.text.splitlines()
        tail = lines[rng.end.line - 1][rng.end.column :] if rng.end.line <= len(lines) else ""
        return hoist_fix(call, loop, rng.start.column, taken, tail)

    @staticmethod
    def _called_in(call, scope, loop) -> bool:
        """``g = jax.jit(...)`` then ``g(...)`` later in the same loop."""
        start, end = loop
        names = [n for n, binds in scope.bindings.items() for b in binds if b.value is call]
        return any(
            isinstance(fx, cst.Name) and fx.value in names and start <= o <= end for fx, o in scope.calls
        )

    @staticmethod
    def _def_order(scope, f) -> int:
        for b in scope.bindings.get(f.name, ()):
            if b.kind == "def" and b.order is not None:
                return b.order
        return -1


def _in_traced_code(scope, finder) -> bool:
    s = scope
    while s is not None:
        if s.kind == "function" and s.func is not None and finder.is_traced_def(s.func):
            return True
        s = s.parent
    return False


def _reads_loop_variables(func, scope, loop) -> bool:
    """Does the function read a variable that the loop binds (its target, or an assignment in
    its body)?"""
    start, end = loop
    varying = {n for n, binds in scope.bindings.items() if any(b.order is not None and start <= b.order <= end and b.kind != "def" for b in binds)}
    if not varying:
        return False
    names = _NamesRead()
    names.walk(func.node)
    return bool(varying & names.names)


class _NamesRead(FastVisitor):
    def __init__(self):
        self.names = set()

    def visit_Name(self, node) -> None:
        self.names.add(node.value)
