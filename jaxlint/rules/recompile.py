"""JAX4xx: recompilation and compile-time cost."""

from __future__ import annotations

import libcst as cst

from jaxlint.rules.base import Rule


class JitInLoop(Rule):
    """
    What it does
        Flags ``jax.jit`` applied to a fresh function every time it runs: ``jax.jit(lambda ...)``
        called at once inside a function, or ``jax.jit(...)`` of a lambda or a function defined
        inside a loop.

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
    fix = "jit the function once (at module level or outside the loop) and reuse the jitted function"
    prevents = "recompilation on every call"
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
        """
    ]

    def check_module(self, m):
        for call, scope, order in m.index.calls:
            fn_expr = call.args[0].value if call.args and call.args[0].keyword is None else None
            if fn_expr is None:
                continue
            found = m.finder.transform_of(call.func, scope)
            if found is None or not found[0].cached or found[1]:
                continue
            api = "jax.jit"
            in_loop = any(start <= order <= end for start, end in scope.loops)
            if isinstance(fn_expr, cst.Lambda):
                if in_loop:
                    m.report(self, call, api=api, what="lambda created in a loop")
                elif scope.kind == "function" and self._called_at_once(call, m):
                    m.report(self, call, api=api, what="lambda created on every call of the enclosing function")
            elif isinstance(fn_expr, cst.Name) and in_loop:
                f = scope.defs.get(fn_expr.value)
                if f is not None and any(start <= order <= end and start < self._def_order(scope, f) for start, end in scope.loops):
                    m.report(self, call, api=api, what="function defined inside the loop")

    @staticmethod
    def _called_at_once(call, m) -> bool:
        for c, _s, _o in m.index.calls:
            if c.func is call:
                return True
        return False

    @staticmethod
    def _def_order(scope, f) -> int:
        for b in scope.bindings.get(f.name, ()):
            if b.kind == "def" and b.order is not None:
                return b.order
        return -1

