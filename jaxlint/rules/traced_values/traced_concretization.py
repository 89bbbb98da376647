"""JAX104 traced-concretization."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.traced.value_checks import plain_traced, value_label
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class TracedConcretization(Rule):
    """
    What it does
        Flags ``int()``, ``float()``, ``bool()``, ``complex()``, ``.item()``, ``.tolist()``,
        ``operator.index()``, ``math.*`` functions and f-string format specs (``f"{x:.3f}"``)
        applied to a traced value.

    Why is this bad?
        Each needs the concrete value, which does not exist while tracing: JAX raises
        ``ConcretizationTypeError`` (or ``TracerIntegerConversionError``).

    Example
        @jax.jit
        def scale(x):
            return x * math.sqrt(float(x.sum()))

    Use instead
        Stay in arrays: ``jnp.sqrt(x.sum())``, ``x.astype(jnp.int32)``; or move the conversion
        out of the jitted function.

    References
        https://jax.readthedocs.io/en/latest/errors.html#jax.errors.ConcretizationTypeError
    """

    code = "JAX104"
    name = "traced-concretization"
    message = "`{func}` needs a concrete value but `{var}` is traced in {where}"
    fix = "keep the value as an array (jnp.sqrt, x.astype(...)), or convert it outside the traced function"
    prevents = raises(
        ErrorPattern("ConcretizationTypeError"),
        ErrorPattern("TracerIntegerConversionError"),
        # f"{x:.3f}": a tracer refuses a format spec
        ErrorPattern("TypeError", r"unsupported format string"),
        description="ConcretizationTypeError",
        tracer_type_error=True,
    )
    bad = [
        """
        import math
        import jax

        @jax.jit
        def norm_scale(x):
            n = float(x.sum())  # error: JAX104
            return x / math.sqrt(n) + x.max().item()  # error: JAX104
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def norm_scale(x):
            n = x.sum().astype(jnp.float32)
            return x / jnp.sqrt(n) + int(x.shape[0])
        """
    ]

    _BUILTINS = {"builtins.int": "int()", "builtins.float": "float()", "builtins.bool": "bool()", "builtins.complex": "complex()"}

    # Under ``jax.grad`` alone a differentiated value is a JVP tracer with a concrete primal:
    # ``int()``, ``bool()`` and ``.item()`` read the primal, but a conversion to a float (which
    # would drop the derivative), a format spec and ``.tolist()`` still raise (checked with jax
    # 0.10.2).  These findings stand under grad too (``under_grad`` in rules/prevents.py).
    _RAISE_UNDER_GRAD = frozenset({"builtins.float", "builtins.complex"})

    def on_call(self, ctx, node, q, argvals):
        label = self._BUILTINS.get(q)
        if label is None:
            if q.startswith("math.") or q == "operator.index":
                label = q + "()"
            else:
                return
        under_grad = q in self._RAISE_UNDER_GRAD or q.startswith("math.")
        for a, v in argvals:
            if plain_traced(v):
                ctx.report(self, node, func=label, var=value_label(v, a.value), under_grad=under_grad)
                return

    def on_format_spec(self, ctx, part, v):
        # f"{x:.3f}" formats a concrete number; a tracer refuses the format spec (TypeError).
        if plain_traced(v):
            spec = "".join(p.value for p in part.format_spec if isinstance(p, cst.FormattedStringText))
            label = v.name or "x"
            ctx.report(self, part, func=f"format({label}, {spec!r})", var=value_label(v, part.expression), under_grad=True)

    def on_method(self, ctx, node, base, meth, argvals):
        if meth in ("item", "tolist") and plain_traced(base):
            ctx.report(self, node, func=f".{meth}()", var=value_label(base, node.func.value), under_grad=meth == "tolist")
