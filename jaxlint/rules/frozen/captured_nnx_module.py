"""JAX308 captured-nnx-module."""

from __future__ import annotations

from jaxlint.analysis import facts
from jaxlint.analysis.model.nnx_state import LIFTED, NnxState, mode_switched_objects, object_key
from jaxlint.analysis.syntax.nodes import dotted_name
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


def _uses_nnx(m) -> bool:
    if "nnx" not in m.text:
        return False
    scopes = [m.index.module_scope] + [f.body_scope for f in m.index.functions if f.body_scope is not None]
    return any(q.startswith(("flax.nnx", "flax.experimental.nnx")) or q == "flax" for s in scopes for q in s.imports.values())


# The module both examples define: the flagged call and the good ones use the same model.
_CLASSIFIER = """
        import jax
        import jax.numpy as jnp
        from flax import nnx


        class Classifier(nnx.Module):
            def __init__(self, rngs: nnx.Rngs):
                self.linear = nnx.Linear(4, 2, rngs=rngs)
                self.dropout = nnx.Dropout(0.5, rngs=rngs)

            def __call__(self, x):
                return self.dropout(self.linear(x))
"""


# How the message names what the traced code does with the object.
_VERBS = {"__setattr__": ("assigns to", "assignment"), LIFTED: ("passes", "NNX transform")}


class CapturedNnxModule(Rule):
    """
    What it does
        Flags a call, inside a function traced by ``jax.jit``, ``jax.vmap``, ``nnx.jit`` or any
        other transform, to a Flax NNX object the function reads from its closure, a global or
        the ``self`` of a bound method, when the call changes the object's state: an
        ``nnx.Rngs`` handing out a key, an ``nnx.Dropout`` drawing from its Rngs, an
        ``nnx.BatchNorm`` in training mode updating its statistics, a method writing one of
        its ``nnx.Variable`` values, an ``nnx.Optimizer`` updating; an assignment to an attribute
        of any NNX object (a module, an ``nnx.Pytree``, ``nnx.Dict``, ``nnx.Optimizer``) or to a
        Variable's value or items (``model.count = 1``, ``model.w.value = w``); and such an
        object passed to an NNX transform (``nnx.grad(loss)(model)``), which takes its state and
        writes it back, also where the object's own method hands itself or one of its layers
        to one (a method decorated with ``@nnx.jit``, ``nnx.scan`` over ``self.blocks``).

    Why is this bad?
        The object's Variables were created outside the trace.  Flax refuses to write them from
        inside it: ``TraceContextError: Cannot mutate RngCount from a different trace level``.
        NNX transforms lift the state of their *arguments* only; a captured module is not
        lifted by ``nnx.jit`` either.

    Example
        model = Classifier(rngs=nnx.Rngs(0, dropout=1))  # holds an nnx.Dropout

        @jax.jit
        def predict(x):
            return model(x)

    Use instead
        Pass the module in and let an NNX transform carry its state in and out::

            @nnx.jit
            def predict(model, x):
                return model(x)

        or ``graphdef, state = nnx.split(model)`` outside and ``nnx.merge(graphdef, state)``
        inside a plain ``jax.jit`` function that returns the new state.  A module in eval mode
        (``model.eval()``) draws no dropout keys and reads its running statistics.

    References
        https://flax.readthedocs.io/en/latest/nnx_basics.html
        https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html#flax.errors.TraceContextError
    """

    code = "JAX308"
    name = "captured-nnx-module"
    message = "{where} {verb} `{var}` from outside the trace, and the {act} writes NNX state ({state}): Flax raises TraceContextError"
    fix = "pass `{var}` to the function as an argument and transform it with nnx.jit / nnx.vmap (or nnx.split it and nnx.merge the state inside)"
    # The write that fails is in the module's own code (its ``__call__``), inside the flagged call.
    prevents = raises(
        ErrorPattern("TraceContextError", r"Cannot mutate '?\w+'? from (a )?different trace level"),
        ErrorPattern("ValueError", r"Cannot extract graph node from different trace level"),
        within_call=True,
    )
    bad = [
        _CLASSIFIER
        + """

        model = Classifier(nnx.Rngs(0))


        @jax.jit
        def predict(x):
            return model(x)  # error: JAX308
        """,
        """
        import jax
        import jax.numpy as jnp
        from flax import nnx


        class Remembering(nnx.Module):
            def __init__(self):
                self.scale = nnx.Param(jnp.array(2.0))
                self.last = None

            def __call__(self, x):
                self.last = x  # a module's own attribute, set from inside the trace
                return x * self.scale[...]


        remembering = Remembering()


        @jax.jit
        def remembered(x):
            return remembering(x)  # error: JAX308
        """,
    ]
    good = [
        _CLASSIFIER
        + """
            def logits(self, x):
                return self.linear(x)


        model = Classifier(nnx.Rngs(0))


        @nnx.jit
        def predict(model, x):
            return model(x)


        @jax.jit
        def scores(x):
            return model.logits(x)
        """
    ]

    def check_module(self, m):
        if not m.finder.applications or not _uses_nnx(m):
            return
        calls = facts.captured_calls.CapturedCalls(m.index, m.finder)
        state = NnxState(m.finder.receivers)
        switched = None
        reported = set()
        for app in m.finder.applications:
            if m.finder.in_traced_code(app.func.scope):
                continue  # traced inside another traced function: the outer entry point reports
            for c in calls.of(app):
                if id(c.call) in reported:
                    continue
                r = m.finder.receivers.receiver_of(c.obj, c.scope)
                if r is None:
                    continue
                if switched is None:
                    switched = mode_switched_objects(m.index)
                found = state.mutation(r, c.method, c.call, object_key(c.obj, c.scope) not in switched)
                if found is None:
                    continue
                reported.add(id(c.call))
                verb, act = _VERBS.get(c.method, ("calls", "call"))
                var = dotted_name(c.obj) or "module"
                m.report(self, c.call, verb=verb, act=act, var=var, state=found, entry=app)  # the entry names `where`
