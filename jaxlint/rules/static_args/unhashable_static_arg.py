"""JAX202 unhashable-static-arg."""

from __future__ import annotations

from jaxlint.analysis.expression_kinds import describe_unhashable
from jaxlint.findings import FindingFacts
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class UnhashableStaticArg(Rule):
    """
    What it does
        Flags a call that passes a list, dict, set or array for a static parameter of a jitted
        function (``static_argnums``, ``static_argnames``, ``pmap``'s
        ``static_broadcasted_argnums``), and a traced value passed for one from inside another
        traced function.

    Why is this bad?
        JAX hashes static arguments to look up the compiled function: ``ValueError:
        Non-hashable static arguments are not supported``.

    Example
        step = jax.jit(update, static_argnums=(1,))
        step(params, [64, 64])

    Use instead
        A tuple (``(64, 64)``), a frozenset, or a scalar; or make the parameter non-static.

    References
        https://jax.readthedocs.io/en/latest/_autosummary/jax.jit.html
    """

    code = "JAX202"
    name = "unhashable-static-arg"
    message = "{what} is passed for static parameter `{var}` of {func}()"
    fix = "pass a hashable value (a tuple instead of a list, a frozenset, a scalar), or make `{var}` a traced argument"
    prevents = raises(
        ErrorPattern("ValueError", r"Non-hashable static arguments are not supported"),
        stage="call",
        description="ValueError: Non-hashable static arguments are not supported",
    )
    bad = [
        """
        import jax
        import jax.numpy as jnp

        def mlp(x, sizes):
            for s in sizes:
                x = x[:s]
            return x

        mlp_jit = jax.jit(mlp, static_argnums=(1,))
        mlp_jit(jnp.ones(8), [4, 2])  # error: JAX202
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        def mlp(x, sizes):
            for s in sizes:
                x = x[:s]
            return x

        mlp_jit = jax.jit(mlp, static_argnums=(1,))
        mlp_jit(jnp.ones(8), (4, 2))
        """
    ]

    def on_traced_static_arg(self, ctx, arg, pname, func, v):
        # A jitted function calling another jitted function: a tracer is not hashable either.
        facts = FindingFacts(value_kind="tracer", entry=func.qualname, parameter=pname)
        ctx.report(self, arg.value, what=f"Traced value `{v.name or pname}`", var=pname, func=func.name, facts=facts)

    def check_module(self, m):
        for app, arg, pname, scope, _order in m.static_arguments:
            what = describe_unhashable(arg.value, scope)
            if what is not None:
                facts = FindingFacts(value_kind=what.split(" ", 1)[1], entry=app.func.qualname, parameter=pname)
                m.report(self, arg.value, what=what.capitalize(), var=pname, func=app.func.name, facts=facts)
