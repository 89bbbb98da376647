"""JAX307 mutated-static-object."""

from __future__ import annotations

from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import stale


class MutatedStaticObject(Rule):
    """
    What it does
        Flags host code that changes an attribute of an object a jitted function was compiled
        for, between two calls of that function with the same object: an argument passed for a
        ``static_argnums``/``static_argnames`` parameter, ``self`` of a method jitted with
        ``static_argnums=0``, ``self`` of a bound method jitted and stored on the instance
        (``self.step = jax.jit(self.step)``, or in a dict there: ``self.fns = {"step":
        jax.jit(self.step)}``), an instance of a ``register_static`` class, or an
        object held in a static metadata field of a pytree.  The change may be made by a method
        of the object called between the two calls (``model.set_scale(2.0)``), or by a method
        that itself calls the jitted method and changes what it reads (``def learn(self, x):
        y = self.predict(x); self.weight = ...``): its next run on the instance reuses the old
        compiled function.  The calls may reach the jitted function through a module-level
        wrapper that hands the object on (``predict(x, cfg)`` calling ``forward(x, cfg)``), a
        method or ``__call__`` that passes an attribute its ``__init__`` stored from a variable
        (``model = Model(cfg); model.apply(x)`` passing ``self.cfg``), a method that calls the
        jitted function kept for its own instance (``model.predict(x)`` calling ``self.step``), or a jitted function
        stored on the instance (``self.update = jax.jit(sgd, static_argnums=2)``).  Only
        attributes the jitted function reads count; a change before
        the first call, after the last one, or on a variable rebound in between (a frozen
        dataclass passed through ``dataclasses.replace``) is fine.

    Why is this bad?
        ``jit`` finds the compiled function for a call by the ``hash`` and ``==`` of the static
        object, and its cache holds a reference to that very object.  After an in-place change
        the cached key is the changed object, which still equals what is passed, so the next
        call reuses the function traced with the old attribute values: the new value is
        silently ignored.  Defining ``__hash__``/``__eq__`` over the attribute does not help
        (the cache entry's key changed with the object); it only makes an equal new object
        reuse the stale function too.

    Example
        class Model:
            def __init__(self, scale):
                self.scale = scale

            @partial(jax.jit, static_argnums=0)
            def __call__(self, x):
                return x * self.scale

        model = Model(2.0)
        model(x)
        model.scale = 3.0   # ignored: model(x) still multiplies by 2.0
        model(x)

    Use instead
        Treat static objects as immutable: make them frozen dataclasses and pass a new one
        (``cfg = dataclasses.replace(cfg, scale=3.0)``), or pass the changing value as a traced
        argument (``def __call__(self, x, scale)``) or make the class a pytree whose changing
        attributes are leaves.

    References
        https://docs.jax.dev/en/latest/_autosummary/jax.jit.html (static arguments "should be hashable, meaning both __hash__ and __eq__ are implemented, and immutable")
        https://docs.jax.dev/en/latest/faq.html#how-to-use-jit-with-methods
    """

    code = "JAX307"
    name = "mutated-static-object"
    message = "`{var}` is changed after {where} was compiled for `{obj}`; the next call reuses the compiled function, which still sees the old value"
    fix = "do not change an object jit treats as static: pass a new (frozen) object, or pass `{var}` as a traced argument"
    prevents = stale("stale values: the compiled function keeps the object's old attributes")
    bad = [
        """
        from functools import partial
        import jax
        import jax.numpy as jnp

        class Config:
            def __init__(self, scale):
                self.scale = scale

        @partial(jax.jit, static_argnums=1)
        def apply(x, cfg):
            return x * cfg.scale

        cfg = Config(2.0)
        y = apply(jnp.ones(3), cfg)
        cfg.scale = 3.0  # error: JAX307
        y = apply(jnp.ones(3), cfg)
        """
    ]
    good = [
        """
        import dataclasses
        from functools import partial
        import jax
        import jax.numpy as jnp

        @dataclasses.dataclass(frozen=True)
        class Config:
            scale: float

        @partial(jax.jit, static_argnums=1)
        def apply(x, cfg):
            return x * cfg.scale

        cfg = Config(2.0)
        y = apply(jnp.ones(3), cfg)
        cfg = dataclasses.replace(cfg, scale=3.0)
        y = apply(jnp.ones(3), cfg)
        """
    ]

    def check_module(self, m):
        for change in m.static_objects.stale_changes():
            w = change.write
            var = f"{change.name}.{w.attr}"
            # The write is the line to edit.  Related: the call the function was compiled at,
            # each forwarding call from there down to the jitted function, the call that makes
            # the change (when a method makes it), and the read the compiled function keeps.
            related = [(change.first_call, f"{change.keeper.label} is compiled for `{change.name}` here")]
            chain = change.chain or ((change.through,) if change.through is not None else ())
            for i, call in enumerate(chain):
                last = i == len(chain) - 1
                related.append((call, f"the call above reaches {change.keeper.label} here" if last else "forwarded here"))
            if change.via is not None:
                related.append((change.via, "the method that changes it is called here"))
            if change.read is not None:
                read = f"{change.read.value.value}.{change.read.attr.value}"
                related.append((change.read, f"`{read}` is read here at trace time"))
            m.report(
                self, w.node, var=var, where=change.keeper.label, obj=change.name, related=related, jitted_call=change.through
            )
