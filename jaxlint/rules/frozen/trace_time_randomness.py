"""JAX306 trace-time-randomness."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.model.attribute_values import attribute_values
from jaxlint.analysis.facts.impure_calls import RANDOM_PREFIXES, RANDOM_SETUP, RNG_SETUP_METHODS, is_host_rng, is_rng_constructor
from jaxlint.analysis.host.host_value import CLOCKS
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import frozen


class TraceTimeRandomness(Rule):
    """
    What it does
        Flags Python or NumPy randomness (``random.random()``, ``np.random.normal()``,
        ``secrets``, ``uuid``, ``os.urandom``), draws from a global, captured or ``self`` host generator
        (``RNG = np.random.default_rng(); RNG.normal()``, ``self.rng.normal()``) and clock reads (``time.time()``)
        inside a traced function or a function it calls.

    Why is this bad?
        They run once, at trace time; the compiled function replays the same "random" number
        or timestamp on every call.

    Example
        @jax.jit
        def noisy(x):
            return x + np.random.normal()

    Use instead
        ``jax.random`` with a key passed in as an argument
        (``x + jax.random.normal(key, x.shape)``); pass timestamps as arguments.

    References
        https://jax.readthedocs.io/en/latest/random-numbers.html
    """

    code = "JAX306"
    name = "trace-time-randomness"
    message = "`{func}()` in {where} is evaluated once at trace time; every call reuses the same value"
    fix = "use jax.random with a key passed as an argument; pass times and other host values as arguments"
    prevents = frozen("the same random number or timestamp replayed on every call")
    bad = [
        """
        import jax
        import numpy as np

        @jax.jit
        def noisy(x):
            return x + np.random.normal()  # error: JAX306
        """
    ]
    good = [
        """
        import jax

        @jax.jit
        def noisy(x, key):
            return x + jax.random.normal(key, x.shape)
        """
    ]

    def on_call(self, ctx, node, q, argvals):
        t = ctx.frame.entry.transform
        if not t.effects or ctx.frame.runs_per_call:
            return  # under ``vmap`` alone the function runs, and draws, on every call
        if q in CLOCKS or (q.startswith(RANDOM_PREFIXES) and q not in RANDOM_SETUP):
            short = q.replace("numpy.", "np.")
            ctx.report(self, node, func=short)

    def on_method(self, ctx, node, base, meth, argvals):
        t = ctx.frame.entry.transform
        if not t.effects or ctx.frame.runs_per_call or meth in RNG_SETUP_METHODS:
            return
        if base.outer is None:
            obj = node.func.value if isinstance(node.func, cst.Attribute) else None
            if isinstance(obj, cst.Attribute) and self._self_rng(ctx, obj):
                ctx.report(self, node, func=f"{cst.Module([]).code_for_node(obj)}.{meth}")
            return
        owner, name, _ = base.outer
        if is_host_rng(owner, name):
            ctx.report(self, node, func=f"{name}.{meth}")

    @staticmethod
    def _self_rng(ctx, target) -> bool:
        """``self.rng`` of a method, only ever bound to a host generator
        (``self.rng = np.random.default_rng(0)`` in ``__init__``)."""
        known = attribute_values(ctx.analyzer.finder.index, ctx.analyzer.classes)
        values = known.values(target, ctx.func.body_scope or ctx.func.scope)
        return bool(values) and all(is_rng_constructor(v, s) for v, s in values)
