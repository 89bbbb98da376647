"""JAX209 traced-self-not-pytree."""

from __future__ import annotations

from jaxlint.findings import FindingFacts
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class TracedSelfNotPytree(Rule):
    """
    What it does
        Flags a call of a method decorated with ``jax.jit`` (or ``partial(jax.jit,
        static_argnums=...)`` that leaves out ``self``) on an instance of a plain class: one
        that is not a pytree (not a dataclass registered with JAX, an ``equinox.Module``, a
        ``flax.struct`` dataclass, a NamedTuple or a class registered with
        ``register_pytree_node``); and an instance of such a class, or a function (a def or a
        lambda, itself or in a NamedTuple or tuple), passed to a jitted function for any other
        parameter that is not static.

    Why is this bad?
        The jit traces ``self`` like any other parameter that is not static, and an instance of
        a plain class is not an array (nor a pytree of arrays): ``TypeError: Error interpreting argument to <function
        Solver.run> as an abstract array ... passed to the function at path self``.  A
        common slip is ``static_argnums=(1,)`` meant for the first argument after ``self``: the
        indices count ``self``.  A function is no array either ("The problematic value is of
        type <class 'function'>"), also as a field of a NamedTuple, whose fields are leaves.

    Example
        class Solver:
            @partial(jax.jit, static_argnums=(1,))
            def run(self, x, n):
                ...

        Solver().run(x, 3)

    Use instead
        Count ``self`` in the indices (``static_argnums=(0, 2)``, or ``static_argnames``) and
        make the class hashable by what the method reads, or make the class a pytree
        (``equinox.Module``, ``jax.tree_util.register_dataclass``), or jit a function that
        takes the arrays.  For another parameter: make it static, or pass its arrays; a
        function can be static (it hashes), closed over, or wrapped in
        ``jax.tree_util.Partial``.

    References
        https://docs.jax.dev/en/latest/faq.html#how-to-use-jit-with-methods
    """

    code = "JAX209"
    name = "traced-self-not-pytree"
    message = "`{var}` {leaf}, and jitted {func}() traces `{param}`"
    fix = "make `{param}` static (static_argnums/static_argnames; for `self`, counting self in the indices), {remedy}, or jit a function of the arrays"
    prevents = raises(
        ErrorPattern("TypeError", r"as an abstract array"),
        stage="call",
        description="TypeError: Error interpreting argument to <function> as an abstract array",
    )
    bad = [
        """
        from functools import partial
        import jax
        import jax.numpy as jnp

        class Solver:
            @partial(jax.jit, static_argnums=(1,))
            def run(self, x, n):
                return x * n

        solver = Solver()
        solver.run(jnp.ones(3), 2)  # error: JAX209

        class Config:
            def __init__(self, scale):
                self.scale = scale

        @jax.jit
        def apply(cfg, x):
            return x * cfg.scale

        apply(Config(2.0), jnp.ones(3))  # error: JAX209

        @jax.jit
        def transform(fn, x):
            return fn(x)

        transform(lambda v: v + 1, jnp.ones(3))  # error: JAX209
        """
    ]
    good = [
        """
        from functools import partial
        import jax
        import jax.numpy as jnp

        class Solver:
            @partial(jax.jit, static_argnums=(0, 2))
            def run(self, x, n):
                return x * n

        solver = Solver()
        solver.run(jnp.ones(3), 2)

        class Config:
            def __init__(self, scale):
                self.scale = scale

        @partial(jax.jit, static_argnums=0)
        def apply(cfg, x):
            return x * cfg.scale

        apply(Config(2.0), jnp.ones(3))  # a static instance is hashed by identity

        @partial(jax.jit, static_argnums=0)
        def transform(fn, x):
            return fn(x)

        transform(lambda v: v + 1, jnp.ones(3))  # a static function hashes
        """
    ]

    def check_module(self, m):
        for hit in m.traced_self_calls:
            what = f"an instance of `{hit.cls.name}`" if hit.cls is not None else "a function"
            why = "not a pytree" if hit.cls is not None else "not an array"
            leaf = f"holds {what} at `{hit.path}`, which is {why}" if hit.path else f"is {what}, which is {why}"
            remedy = f"make `{hit.cls.name}` a pytree" if hit.cls is not None else "close over the function instead of passing it"
            related = ((hit.built, "the instance is passed in here"),) if hit.built is not None else ()
            known = {"cls": hit.cls.name} if hit.cls is not None else {}
            # no stand-in shows a function where the code keeps it: the check runs the code
            facts = FindingFacts(value_kind="function", entry=hit.func.qualname, parameter=hit.param) if hit.cls is None else None
            m.report(
                self, hit.receiver, var=m.module.code_for_node(hit.receiver), leaf=leaf, remedy=remedy, func=hit.func.name, param=hit.param,
                related=related, facts=facts, **known,
            )
