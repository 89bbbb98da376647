"""JAX202 unhashable-static-arg."""

from __future__ import annotations

from jaxlint.analysis.traced.value_checks import surely_traced
from jaxlint.analysis.traced.values import JAXARR, TRACED
from jaxlint.findings import FindingFacts
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


# Equinox splits a pytree by a filter spec of Python bools (or callables); a traced leaf there
# is refused (``ValueError: `filter_spec` leaf values cannot be traced arrays``).
EQX_FILTERS = frozenset({"equinox.partition", "equinox.filter"})


class UnhashableStaticArg(Rule):
    """
    What it does
        Flags a value that JAX must hash but cannot: a list, dict, set, JAX or NumPy array,
        optimiser state, a slice (unless ``requires-python`` starts at 3.12), or an instance
        of a class without ``__hash__`` (a dataclass with eq and without ``frozen=True``, an
        attrs class made by ``@attrs.define`` or ``@attr.s`` without ``frozen=True``, a class
        defining ``__eq__`` only, a subclass of ``dict``, ``list``, ``set`` or
        ``collections.OrderedDict`` that defines no ``__hash__``), or of a class that hashes
        its fields (a frozen dataclass or attrs class, a Linen module) holding one of those,
        however the instance is built (in place, by a helper or classmethod constructor, by
        ``functools.partial`` of the class), or a tuple holding one of those (a
        ``namedtuple`` instance; ``tuple(rows)`` of a list of lists or of a JAX array, whose
        elements are arrays), passed for a static
        parameter of a jitted function (``static_argnums``, ``static_argnames``, ``pmap``'s
        ``static_broadcasted_argnums``), for a static ``self``, or as a non-array leaf of an
        ``equinox.filter_jit`` argument; and a traced value passed for a static parameter.

        The value is followed from where host code builds it (module level, ``__main__``
        blocks, tests, training loops; through reassignment and branches), through wrappers
        that forward it, factories that return the jitted function, and
        ``functools.partial``; a transform over a jitted function (``jax.make_jaxpr``,
        ``jax.vmap``, ``jax.jit``, ``jax.grad`` over that argument) passes tracers for its
        static parameters unless it declares them static too.  Also a traced value passed
        for ``custom_vjp``'s ``nondiff_argnums``, for ``lax.scan``'s ``length`` / ``unroll``, or
        as the ``filter_spec`` of ``eqx.partition`` / ``eqx.filter`` (a spec computed from traced
        leaves: equinox needs Python bools); and the static half of ``eqx.partition(model,
        eqx.is_array)`` passed for a static parameter of ``jax.jit`` when a field it keeps is a
        dict or list (``eqx.filter_jit`` splits those and is fine).

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
    message = "{what} is passed for static parameter `{var}` of {func}(){via}"
    fix = "pass a hashable value (a tuple instead of a list, a frozenset, a scalar), or make `{var}` a traced argument"
    prevents = raises(
        ErrorPattern("ValueError", r"Non-hashable static arguments are not supported"),
        ErrorPattern("UnexpectedTracerError", r"nondiff_argnums"),
        ErrorPattern("ValueError", r"`filter_spec` leaf values cannot be traced arrays"),
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

    def on_traced_static_arg(self, ctx, arg, pname, func, v, via=""):
        # A jitted function calling another jitted function: a tracer is not hashable either,
        # nor is a concrete array that traced code hands on.
        if v.kind != TRACED:
            what = "A JAX array" if v.flags & JAXARR else "A NumPy array"
            facts = FindingFacts(value_kind="array", entry=func.qualname, parameter=pname)
            ctx.report(self, arg.value, what=what, var=pname, func=func.name, via=via, facts=facts, unhashable=True)
            return
        facts = FindingFacts(value_kind="tracer", entry=func.qualname, parameter=pname)
        ctx.report(
            self, arg.value, what=f"Traced value `{v.name or pname}`", var=pname, func=func.name, via=via, facts=facts,
            unhashable=True,
        )

    def on_call(self, ctx, node, q, argvals):
        if q in EQX_FILTERS:
            self._traced_filter_spec(ctx, q, argvals)
    def _traced_filter_spec(self, ctx, q, argvals):
        """``eqx.partition(model, jax.tree.map(lambda w: w > 0, model))`` in traced code."""
        positional = [(a, v) for a, v in argvals if a.keyword is None and not a.star]
        spec = next(((a, v) for a, v in argvals if a.keyword is not None and a.keyword.value == "filter_spec"), None)
        if spec is None and len(positional) >= 2:
            spec = positional[1]
        if spec is None or not surely_traced(spec[1]):
            return
        a, v = spec
        name = "eqx." + q.rsplit(".", 1)[-1]
        facts = FindingFacts(value_kind="tracer", entry=ctx.frame.entry.func.qualname, parameter="filter_spec")
        ctx.report(
            self, a.value, what=f"Traced value `{v.name or 'filter_spec'}`", var="filter_spec", func=name,
            via=": its leaves must be Python bools or callables", facts=facts,
        )

    def check_module(self, m):
        paths = m.static_paths
        seen = set()
        if paths:
            # a call that hands a plain instance for a traced ``self`` fails there first
            # (JAX209), before any static argument is hashed
            seen = {id(a.value) for hit in m.traced_self_calls for a in hit.call.args}
        for p in paths:
            if id(p.node) in seen:
                continue  # one finding where JAX raises, however many callers reach it
            seen.add(id(p.node))
            what = p.what[0].upper() + p.what[1:]
            related = ()
            if p.built is not None:
                where = m.positions.get(p.built)
                at = m.positions.get(p.node)
                if where is not None and at is not None and where.start.line != at.start.line:
                    what += f" (built at line {where.start.line})"
                    related = ((p.built, "the value is built here"),)
            facts = FindingFacts(value_kind=p.kind, entry=p.func.qualname, parameter=p.param)
            m.report(self, p.node, what=what, var=p.param, func=p.func.name, via=p.via, facts=facts, related=related)
