"""JAX309 escaped-tracer."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis import traced
from jaxlint.analysis.syntax.scopes import MUTATING_METHODS
from jaxlint.analysis.traced.values import TRACED
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class EscapedTracer(Rule):
    """
    What it does
        Flags a closure made inside a traced function that holds the trace's tracers (a
        ``lambda`` or nested ``def`` reading a traced variable, or a ``functools.partial``
        binding one) and leaves the trace: stored into a global or closure container or object
        (``CALLBACKS.append(lambda: x * 2)``, ``CACHE["f"] = f``, ``registry.fn = f``), assigned
        to a global, or returned from an ``eqx.filter_jit`` function (which hands non-array
        outputs back as they are).  A closure that reads only Python values, NumPy constants or
        module-level arrays holds no tracer and is not flagged; neither is a closure that is
        called inside the trace.

        Also flags a call (or property read) in traced code that fills a memo outliving the
        trace with a tracer (or an object the trace built around one) and returns it: ``if self._w is None: self._w = jnp.hanning(n)``
        on an object from outside the trace, ``global _T; if _T is None: _T = ...``.  Every
        later call returns the memo's tracer.  A memo the function applying the transform
        filled on the host first (it called the same function before) holds a concrete array.

    Why is this bad?
        The tracers belong to a trace that has ended.  Calling the closure, or using what the
        memo returns, later computes with them and JAX raises ``UnexpectedTracerError``.

    Example
        @eqx.filter_jit
        def make_predictor(w):
            return lambda x: w @ x

        predict = make_predictor(w)
        predict(x)  # UnexpectedTracerError

    Use instead
        Return the arrays and build the function outside the trace
        (``w = fit(...); predict = lambda x: w @ x``), or pass the values the closure needs as
        arguments when it is called.  Fill a memo on the host before tracing, or build the
        value anew in each trace.

    References
        https://docs.jax.dev/en/latest/errors.html#jax.errors.UnexpectedTracerError
    """

    code = "JAX309"
    name = "escaped-tracer"
    message = "{what} holds {held} of {where} and is used after the trace ends"
    fix = "return arrays from the traced function and build the callable outside it, or pass the values as arguments; fill a memo before tracing"
    prevents = raises(
        ErrorPattern("UnexpectedTracerError"),
        stage="after",
        description="UnexpectedTracerError when the closure or the memo is used after the trace",
        at="use",
    )
    bad = [
        """
        import equinox as eqx
        import jax
        import jax.numpy as jnp

        CALLBACKS = []
        _GRID = None

        def grid():
            global _GRID
            if _GRID is None:
                _GRID = jnp.linspace(0.0, 1.0, 3)
            return _GRID

        @jax.jit
        def step(x):
            y = x * 2.0
            CALLBACKS.append(lambda: y + 1.0)  # error: JAX309
            return y

        def shifted(x):
            return x + grid()  # error: JAX309

        @eqx.filter_jit
        def make_scaler(scale):
            return lambda v: v * scale  # error: JAX309

        step(jnp.ones(3))
        CALLBACKS[0]()
        jax.eval_shape(shifted, jnp.ones(3))
        grid() + 1.0
        make_scaler(jnp.float32(2.0))(jnp.ones(3))
        """
    ]
    good = [
        """
        import equinox as eqx
        import jax
        import jax.numpy as jnp
        import numpy as np

        CALLBACKS = []
        TABLE = np.arange(3.0)
        _GRID = None

        def grid():
            global _GRID
            if _GRID is None:
                _GRID = jnp.linspace(0.0, 1.0, 3)
            return _GRID

        @jax.jit
        def step(x):
            CALLBACKS.append(lambda: TABLE.sum())  # a NumPy constant: no tracer
            double = lambda v: v * 2.0
            return double(x)  # called inside the trace

        def shifted(x):
            return x + grid()

        def shapes(x):
            grid()  # filled on the host: the trace finds a concrete array
            return jax.eval_shape(shifted, x)

        @eqx.filter_jit
        def make_scaler(scale: float):
            return lambda v: v * 2.0

        step(jnp.ones(3))
        shapes(jnp.ones(3))
        CALLBACKS[0]()
        """
    ]

    def on_method(self, ctx, node, base, meth, argvals):
        if meth not in MUTATING_METHODS or base.outer is None:
            return
        for _a, v in argvals:
            var = _captured(ctx.analyzer, v)
            if var is not None:
                ctx.report(self, node, what=f"A closure stored by `{meth}()` on outer `{base.outer[1]}`", var=var, held=f"tracer `{var}`")
                return

    def on_store(self, ctx, kind, target, base, idx, v, stmt, aug):
        if aug or base is None or base.outer is None:
            return
        var = _captured(ctx.analyzer, v)
        if var is not None:
            ctx.report(self, stmt, what=f"A closure stored on outer `{base.outer[1]}`", var=var, held=f"tracer `{var}`")

    def on_name_write(self, ctx, target, name, v, stmt):
        var = _captured(ctx.analyzer, v)
        if var is not None:
            ctx.report(self, stmt, what=f"A closure assigned to global `{name}`", var=var, held=f"tracer `{var}`")

    def on_kept(self, ctx, node, v):
        # the memo outlives the trace: what the call returns now, it returns on later calls
        what = "property" if isinstance(node, cst.Attribute) else "call"
        held = f"tracer `{v.name}`" if v.name else "a tracer"
        ctx.report(self, node, what=f"The memo that the {what} `{cst.Module([]).code_for_node(node)}` fills and returns", held=held)

    def check_module(self, m):
        for app, frame in m.analyzer.analyzed_entries:
            t = app.transform
            if not (t.filtered and t.cached) or frame.closure:
                continue
            for v in frame.returns:
                for item in (v.items or ()) if v.fn is None else (v,):
                    var = _captured(m.analyzer, item)
                    if var is not None:
                        node = item.fn[0].func.node
                        m.report(self, node, entry=app, what="A closure returned from the trace", var=var, held=f"tracer `{var}`")


def _captured(analyzer, v):
    """The traced variable a closure value captures, when it is a closure that captures one."""
    if v is None or v.kind == TRACED or v.fn is None:
        return None
    return traced.escapes.captured_tracer(v, analyzer)
