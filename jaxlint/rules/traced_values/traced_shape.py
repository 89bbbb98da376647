"""JAX108 traced-shape."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.jax.jax_signatures import NEEDS_SIZE, REDUCING_METHODS, SHAPE_ARGS, STATIC_VALUE_ARGS
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
        ``unique``/one-argument ``jnp.where`` without ``size=``.

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
        spec = SHAPE_ARGS.get(q)
        if spec is not None:
            positions, keywords = spec
            pos = [(a, v) for a, v in argvals if a.keyword is None and not a.star]
            for i in positions:
                if i < len(pos) and surely_traced(pos[i][1]):
                    a, v = pos[i]
                    ctx.report(self, a.value, what="Array shape", var=value_label(v, a.value))
                    return
            for a, v in argvals:
                if a.keyword is not None and a.keyword.value in keywords and surely_traced(v):
                    ctx.report(self, a.value, what="Array shape", var=value_label(v, a.value))
                    return
            return
        spec = STATIC_VALUE_ARGS.get(q)
        if spec is None and q.startswith(("jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.")):
            spec = ((), ("axis", "axes"))
        if spec is not None:
            positions, keywords = spec
            pos = [(a, v) for a, v in argvals if a.keyword is None and not a.star]
            hits = [pos[i] for i in positions if i < len(pos)]
            hits += [(a, v) for a, v in argvals if a.keyword is not None and a.keyword.value in keywords]
            for a, v in hits:
                if surely_traced(v):
                    ctx.report(self, a.value, what="A static argument (axis, size or count)", var=value_label(v, a.value))
                    return
        if q == "jax.numpy.repeat" and not any(a.keyword is not None and a.keyword.value == "total_repeat_length" for a, _ in argvals):
            pos = [(a, v) for a, v in argvals if a.keyword is None and not a.star]
            rep = pos[1] if len(pos) > 1 else next(((a, v) for a, v in argvals if a.keyword is not None and a.keyword.value == "repeats"), None)
            if rep is not None and surely_traced(rep[1]):
                ctx.report(self, rep[0].value, what="The output size of `jnp.repeat()` without total_repeat_length=", var=value_label(rep[1], rep[0].value))
                return
        if q == "jax.numpy.bincount" and argvals and surely_traced(argvals[0][1]):
            if not any(a.keyword is not None and a.keyword.value == "length" for a, _ in argvals) and len([a for a, _ in argvals if a.keyword is None]) < 3:
                ctx.report(self, node, what="The size of `jnp.bincount()` without length=", var=value_label(argvals[0][1], argvals[0][0].value))
                return
        if q in NEEDS_SIZE or q == "jax.numpy.where" and len([a for a, _ in argvals if a.keyword is None]) == 1:
            if any(a.keyword is not None and a.keyword.value == "size" for a, _ in argvals):
                return
            if argvals and surely_traced(argvals[0][1]):
                short = q.rsplit(".", 1)[-1]
                ctx.report(self, node, what=f"The size of `jnp.{short}()` without size=", var=value_label(argvals[0][1], argvals[0][0].value))

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
