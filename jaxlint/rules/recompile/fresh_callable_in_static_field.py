"""JAX404 fresh-callable-in-static-field."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.facts.fresh_callables import repetition
from jaxlint.analysis.facts.static_callables import fresh_static_callables
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import recompiles


class FreshCallableInStaticField(Rule):
    """
    What it does
        Flags a lambda, a ``functools.partial``, a ``jax.jit`` result or a function defined in
        the constructor, put into a static metadata field of a pytree
        (``eqx.field(static=True)`` / ``eqx.static_field()``, ``flax.struct.field(pytree_node=
        False)``, ``meta_fields``, the aux data of a custom ``tree_flatten``), by ``__init__``
        / ``__post_init__`` or at a construction, when instances are built again and again (in
        a loop, in a function called in a loop, or by a factory called there) and each one is
        passed to a jitted function.  The finding is at the store; the construction that runs
        repeatedly and the jitted call come with it.  A module-level function (or any object
        bound once) in the field, an instance built once and reused, instances updated with
        ``eqx.tree_at`` / ``.replace`` (which keep the field's object), instances rebuilt only
        under an ``if`` (every hundred steps: as often as asked), and callables made from
        the constructor's arguments (which may differ between instances on purpose) are not
        flagged.

    Why is this bad?
        Static metadata is part of the treedef, which ``jax.jit`` and ``eqx.filter_jit`` use
        as a cache key, and a lambda, a partial object or a jitted function compares by
        identity.  Every instance built with a new one misses the cache: the function traces and
        compiles again on every call, although all the instances compute the same thing.

    Example
        class MLP(eqx.Module):
            weight: jax.Array
            activation: Callable = eqx.field(static=True)

            def __init__(self, weight):
                self.weight = weight
                self.activation = lambda x: jax.nn.gelu(x, approximate=True)

        def evaluate(weight, x):
            return predict(MLP(weight), x)   # predict: an eqx.filter_jit function

        for x in batches:
            evaluate(weight, x)              # compiles on every batch

    Use instead
        Put one object in the field: a module-level function
        (``activation = jax.nn.gelu`` or a ``def`` at module level), or a partial object
        built once at module level; or build the instance once and reuse it.

    References
        https://docs.kidger.site/equinox/faq/#how-do-i-mark-a-field-as-static
        https://docs.jax.dev/en/latest/jit-compilation.html#caching
    """

    code = "JAX404"
    name = "fresh-callable-in-static-field"
    message = "static field `{var}` of {cls} gets a new {what} for each instance, and {cls} is built again {where} and passed to {func}: a compilation per instance"
    fix = "put one callable object in `{var}` (a module-level function, or a partial built once at module level), or build the {cls} once and reuse it"
    prevents = recompiles("a compilation for every rebuilt instance")
    bad = [
        """
        import functools
        import equinox as eqx
        import jax
        import jax.numpy as jnp
        from typing import Callable

        class MLP(eqx.Module):
            weight: jax.Array
            activation: Callable = eqx.field(static=True)

            def __init__(self, weight):
                self.weight = weight
                self.activation = lambda x: jax.nn.gelu(x, approximate=True)  # error: JAX404

        @eqx.filter_jit
        def predict(model, x):
            return model.activation(model.weight @ x)

        def evaluate(weight, x):
            model = MLP(weight)
            return predict(model, x)

        weight = jnp.ones((2, 2))
        for x in jnp.ones((3, 2)):
            evaluate(weight, x)
        """,
        """
        import functools
        import jax
        import jax.numpy as jnp
        from flax import struct
        from typing import Callable

        def cosine(step, total):
            return 0.5 * (1 + jnp.cos(jnp.pi * step / total))

        @struct.dataclass
        class Schedule:
            base: float
            shape: Callable = struct.field(pytree_node=False)

        @jax.jit
        def learning_rate(schedule, step):
            return schedule.base * schedule.shape(step)

        for step in range(3):
            schedule = Schedule(0.1, functools.partial(cosine, total=100))  # error: JAX404
            learning_rate(schedule, step)
        """,
    ]
    good = [
        """
        import equinox as eqx
        import jax
        import jax.numpy as jnp
        from typing import Callable

        class MLP(eqx.Module):
            weight: jax.Array
            activation: Callable = eqx.field(static=True)

            def __init__(self, weight, activation=jax.nn.gelu):
                self.weight = weight
                self.activation = activation

        @eqx.filter_jit
        def predict(model, x):
            return model.activation(model.weight @ x)

        def evaluate(weight, x):
            return predict(MLP(weight), x)

        weight = jnp.ones((2, 2))
        model = MLP(weight, lambda x: x * 2.0)
        for x in jnp.ones((3, 2)):
            evaluate(weight, x)
            predict(model, x)
        """,
    ]

    def check_module(self, m):
        for hit in fresh_static_callables(m):
            where = "in a loop" if hit.repeated_by is None else f"on every call of a function that {repetition(m, hit.repeated_by)}"
            related = [(hit.construction, f"{hit.cls.name} built again here"), (hit.passed_to, "and passed to a jitted function here")]
            func = _callee(hit.passed_to)
            m.report(
                self,
                hit.store,
                var=hit.field,
                cls=hit.cls.name,
                what=hit.what,
                where=where,
                func=f"{func}()" if func else "a jitted function",
                related=related,
                repeated_by=hit.repeated_by,
            )


def _callee(call):
    """``step`` of ``step(...)`` and of ``self.step(...)``."""
    f = call.func
    if isinstance(f, cst.Name):
        return f.value
    return f.attr.value if isinstance(f, cst.Attribute) else None
