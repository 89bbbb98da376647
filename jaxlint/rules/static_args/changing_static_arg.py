"""JAX204 changing-static-arg."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.static_arguments import counter_loop_of
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import recompiles


class ChangingStaticArg(Rule):
    """
    What it does
        Flags a loop counter passed for a static parameter of a jitted function inside that
        loop (``for step in range(1000): train(x, step)`` with ``step`` static).  Loops over a
        few literal values (``for mode in ("a", "b")``) are what static arguments are for and
        are not flagged.

    Why is this bad?
        Each new static value is a new cache key: JAX traces and compiles the function again
        on every iteration, which is usually slower than not using ``jit`` at all.

    Example
        step_fn = jax.jit(update, static_argnums=(1,))
        for step in range(1000):
            params = step_fn(params, step)

    Use instead
        Pass the changing value as a traced argument (drop it from ``static_argnums``) and
        branch with ``jnp.where``/``lax.cond`` if needed; keep static arguments for values that
        take a few distinct values.

    References
        https://jax.readthedocs.io/en/latest/jit-compilation.html#caching
    """

    code = "JAX204"
    name = "changing-static-arg"
    message = "Static parameter `{var}` of {func}() gets the loop variable `{arg}`: a new compilation on every iteration"
    fix = "make `{var}` a traced argument (remove it from static_argnums/static_argnames)"
    prevents = recompiles()
    bad = [
        """
        import jax
        import jax.numpy as jnp

        def update(w, step):
            return w * 0.99 + step

        update_jit = jax.jit(update, static_argnums=(1,))
        w = jnp.ones(3)
        for step in range(5):
            w = update_jit(w, step)  # error: JAX204
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        def update(w, step, mode):
            return w * 0.99 + step if mode == "sgd" else w

        update_jit = jax.jit(update, static_argnums=(2,))
        w = jnp.ones(3)
        for step in range(5):
            w = update_jit(w, step, "sgd")
        """
    ]

    def check_module(self, m):
        for app, arg, pname, scope, order in m.static_arguments:
            if isinstance(arg.value, cst.Name) and counter_loop_of(scope, arg.value.value, order) is not None:
                m.report(self, arg.value, var=pname, func=app.func.name, arg=arg.value.value)
