"""JAX301 frozen-capture."""

from __future__ import annotations

from jaxlint.analysis.syntax.scopes import VALUE_KINDS
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import frozen


class FrozenCapture(Rule):
    """
    What it does
        Flags a global or closure variable read inside a jitted function when the variable is
        rebound or mutated after the function may have been traced: reassigned after a call of
        it, or in a loop that calls it, or written (through ``global``/``nonlocal``, ``.append``,
        ``[k] = v``, ``.attr = v``) by a function that can run after such a call.  A function
        that only runs before the first traced call (a ``register_*`` helper called at import
        time) is fine; so is a setter that nothing in the module calls, since when its callers
        run cannot be known, and a rebinding after the last call of a local jitted function.
        A nested function that its enclosing function jits and calls on the spot
        (``jax.jit(jax.vmap(update_one))(balls)``) is a new function, traced afresh, on every
        run: it is stale only when the same compiled function is called again after the
        rebinding, in the same run or in a loop that does not build it anew.  A write that
        cannot run after the compiled function exists is no change: one made before its
        ``def`` (or the ``def`` of the function that makes it, or a ``jax.jit(f)`` applied by
        call), in the other branch of an ``if``, or after a ``return`` that every path from
        there takes (each branch returning its own closure).

    Why is this bad?
        The value is read once, at trace time, and baked into the compiled function as a
        constant.  Later changes are silently ignored while shapes and dtypes of the arguments
        stay the same: the learning-rate schedule that never decays.

    Example
        lr = 0.1

        @jax.jit
        def step(w, g):
            return w - lr * g

        step(w, g)
        lr = 0.01   # step still uses 0.1

    Use instead
        Pass the value as an argument: ``def step(w, g, lr)``.  A module constant that is never
        rebound is fine and is not flagged.

    References
        https://jax.readthedocs.io/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions
    """

    code = "JAX301"
    name = "frozen-capture"
    message = "`{var}` is read by {where} but changed elsewhere; the value seen at trace time is frozen into the compiled function"
    fix = "pass `{var}` as an argument (or make it static if it is configuration) so that changes take effect"
    prevents = frozen("stale values silently baked into the compiled function", observe="capture")
    bad = [
        """
        import jax
        import jax.numpy as jnp

        lr = 0.1

        @jax.jit
        def step(w, g):
            return w - lr * g  # error: JAX301

        w = step(jnp.ones(3), jnp.ones(3))
        lr = 0.01
        w = step(w, jnp.ones(3))
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        LR = 0.1

        @jax.jit
        def step(w, g, lr):
            return w - lr * g * LR

        w = step(jnp.ones(3), jnp.ones(3), 0.1)
        w = step(w, jnp.ones(3), 0.01)
        """
    ]

    def __init__(self) -> None:
        # (function, name) pairs already reported: one finding per captured name and function.
        self._reported: set = set()

    def on_capture(self, ctx, node, name, owner, attr):
        if not ctx.cached or name in ctx.frame.declared:
            return
        key = (id(ctx.func.node), name)
        if key in self._reported:
            return
        rebinding = ctx.analyzer.module_ctx.rebinding
        entry = ctx.frame.entry
        if rebinding.is_rebound(owner, name, attr, reader=entry.func if entry is not None else None):
            self._reported.add(key)
            # The read is the line to edit (pass the value in); every write that changes it,
            # in source order, shows why it is stale.
            changes = rebinding.changes(owner, name, attr, reader=entry.func if entry is not None else None)
            related = [(w, _changed(name, kind)) for w, kind in changes]
            if not related:
                witness = rebinding.witness(owner, name)
                related = [(witness, f"`{name}` gets a new value here")] if witness is not None else []
            ctx.report(self, node, var=name, related=related)


def _changed(name: str, kind: str) -> str:
    """The note at a write of ``name`` (kind as jaxlint.analysis.facts.rebinding ``changes``)."""
    if kind in VALUE_KINDS:
        return f"`{name}` gets a new value here"
    if kind.startswith("attr:"):
        return f"`{name}.{kind[5:]}` is changed here"
    return f"`{name}` is changed here"
