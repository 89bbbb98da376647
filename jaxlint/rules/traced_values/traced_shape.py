"""JAX108 traced-shape."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.jax.jax_signatures import REDUCING_METHODS, concrete_args
from jaxlint.analysis.traced.values import BOOL, DICT, OPAQUE, PYSEQ, TRACED
from jaxlint.analysis.traced.value_checks import is_at_indexer, surely_traced, value_label
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class TracedShape(Rule):
    """
    What it does
        Flags array shapes and sizes that depend on traced values: ``jnp.zeros(n)``,
        ``x.reshape(n, -1)``, ``jax.random.normal(key, (n,))`` with traced ``n``; slices with a
        traced bound (``x[:n]``); boolean masks (``x[x > 0]``); ``jnp.nonzero``/``argwhere``/
        ``unique``/one-argument ``jnp.where`` without ``size=``, ``jax.ops.segment_sum``
        without ``num_segments=``; and every other argument of JAX's functions that JAX needs
        concrete (axes, counts, ``jnp.fft.fft``'s ``n``), as read from JAX itself.

    Why is this bad?
        XLA compiles for fixed shapes.  A shape that depends on data cannot be known at trace
        time: ``TypeError``/``ConcretizationTypeError``, ``IndexError`` for slices,
        ``NonConcreteBooleanIndexError`` for masks.

    Example
        @jax.jit
        def positives(x):
            return x[x > 0]

    Use instead
        Keep shapes static: ``jnp.where(x > 0, x, 0)`` instead of a mask, ``size=`` (with
        ``fill_value=``) on ``nonzero``/``where``/``unique``, ``lax.dynamic_slice`` for a traced
        offset with a static length, ``static_argnames`` for a size parameter.

    References
        https://jax.readthedocs.io/en/latest/errors.html#jax.errors.NonConcreteBooleanIndexError
    """

    code = "JAX108"
    name = "traced-shape"
    message = "{what} depends on traced value `{var}` in {where}"
    fix = "shapes must be static: make `{var}` static, use jnp.where(mask, x, 0) instead of x[mask], pass size= to nonzero/where/unique, or lax.dynamic_slice for traced offsets"
    prevents = raises(
        ErrorPattern("ConcretizationTypeError"),
        ErrorPattern("TracerIntegerConversionError"),
        ErrorPattern("NonConcreteBooleanIndexError"),
        ErrorPattern("IndexError", r"must be static"),
        ErrorPattern("TypeError", r"[Ss]hapes must be 1D sequences of concrete values"),
        # A traced count that reaches a primitive's parameter (jnp.tile's reps), which JAX
        # requires to be a hashable constant.
        ErrorPattern("TypeError", r"value of parameter \w+ was not hashable: .*Tracer"),
        # A traced flag or count that JAX passes on as a static argument of its own jitted
        # implementation (jnp.triu's k, keepdims=); the same error about another object (a list
        # passed for a static argument) is an unhashable static argument.
        ErrorPattern("ValueError", r"Non-hashable static arguments are not supported[\s\S]*Tracer"),
        # A Python list holding a tracer where JAX reads the list with NumPy (jnp.ndim([x])).
        ErrorPattern("TracerArrayConversionError"),
        ErrorPattern("TracerBoolConversionError"),
        description="ConcretizationTypeError / NonConcreteBooleanIndexError / IndexError (non-static shape)",
    )
    bad = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def pad_to(x, n):
            z = jnp.zeros(n)  # error: JAX108
            return z, x[x > 0], x[:n]  # error: JAX108
        """
    ]
    good = [
        """
        from functools import partial
        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnames=["n"])
        def pad_to(x, n):
            z = jnp.zeros((n, x.shape[0]))
            return z, jnp.where(x > 0, x, 0), x[:n], jnp.nonzero(x, size=3)
        """
    ]

    def on_call(self, ctx, node, q, argvals):
        positional = []
        for a, v in argvals:
            if a.star:
                break  # past ``*args`` the positions are unknown
            if a.keyword is None:
                positional.append((a, v))
        keywords = {a.keyword.value: (a, v) for a, v in argvals if a.keyword is not None}
        # what ``*args`` or ``**kwargs`` may pass is unknown: it may be the size
        star_positions = any(a.star == "*" for a, _ in argvals)
        star_keywords = any(a.star == "**" for a, _ in argvals)
        for position, name, kind, forms, unless in concrete_args(q):
            if any(n in keywords or star_keywords or p is not None and (p < len(positional) or star_positions) for p, n in unless):
                continue
            arg = positional[position] if position is not None and position < len(positional) else keywords.get(name)
            if arg is None or not _rejected(arg[1], forms):
                continue
            a, v = arg
            if unless:
                keyword = next((n for p, n in unless if p is None), unless[0][1])
                # an array whose values set the output size: the call is what cannot be compiled
                what = "The size" if kind == "size" else "The output size"
                ctx.report(self, node if kind == "size" else a.value, what=f"{what} of `{_display(q)}()` without {keyword}=", var=value_label(v, a.value))
            else:
                what = "Array shape" if kind == "shape" else f"A static argument of `{_display(q)}()`"
                ctx.report(self, a.value, what=what, var=value_label(v, a.value))
            return

    def on_method(self, ctx, node, base, meth, argvals):
        if base.kind != TRACED or base.flags & (OPAQUE | PYSEQ | DICT):
            return
        if meth in ("reshape", "broadcast_to"):
            for a, v in argvals:
                if a.keyword is None and surely_traced(v):
                    ctx.report(self, a.value, what="Array shape", var=value_label(v, a.value))
                    return
        elif (meth in REDUCING_METHODS or meth in ("swapaxes", "transpose")) and not is_at_indexer(node.func.value):
            for a, v in argvals:
                if (a.keyword is None or a.keyword.value in ("axis", "axes", "axis1", "axis2")) and surely_traced(v) and not a.star:
                    ctx.report(self, a.value, what="A static argument (axis)", var=value_label(v, a.value))
                    return
        elif meth == "nonzero":
            if not any(a.keyword is not None and a.keyword.value == "size" for a, _ in argvals):
                ctx.report(self, node, what="The size of `.nonzero()` without size=", var=value_label(base, node.func.value))

    def on_subscript(self, ctx, node, base, idx):
        if base.flags & DICT or base.flags & OPAQUE:
            return
        if base.kind != TRACED and not (base.kind == 0 and base.flags & PYSEQ):
            return
        for el, v in zip(node.slice, idx):
            if isinstance(el.slice, cst.Slice) and surely_traced(v):
                ctx.report(self, node, what="Slice bound", var=value_label(v, el.slice))
                return
            if isinstance(el.slice, cst.Index) and base.kind == TRACED:
                # a tuple index is a multi-index: ``x[idx]`` with ``idx = (mask,)`` indexes by its elements
                for part in (v, *(v.items if v.flags & PYSEQ and v.items else ())):
                    if part.kind == TRACED and part.flags & BOOL:
                        ctx.report(self, node, what="Boolean mask index (result size)", var=value_label(part, el.slice.value))
                        return


def _rejected(v, forms) -> bool:
    """Surely a value JAX rejects there: a tracer (``whole``), or a Python tuple or list that
    holds one (``items``: ``jnp.zeros((n, 3))``)."""
    if v.items is not None:
        return "items" in forms and any(surely_traced(i) for i in v.items)
    return "whole" in forms and surely_traced(v)


def _display(q: str) -> str:
    for module, alias in (("jax.numpy.", "jnp."), ("jax.lax.", "lax.")):
        if q.startswith(module):
            return alias + q[len(module):]
    return q
