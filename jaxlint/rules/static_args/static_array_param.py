"""JAX201 static-array-param."""

from __future__ import annotations

from jaxlint.analysis.traced.annotations import is_array_annotation
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class StaticArrayParam(Rule):
    """
    What it does
        Flags a parameter listed in ``static_argnums``/``static_argnames`` that is annotated as
        an array (``jax.Array``, ``jnp.ndarray``, ``np.ndarray``, jaxtyping ``Float[Array, ...]``).

    Why is this bad?
        Static arguments are hashed into the compilation cache key.  Arrays are not hashable:
        ``ValueError: Non-hashable static arguments are not supported``.  ("Static makes the
        array a constant" is a common misunderstanding.)

    Example
        @partial(jax.jit, static_argnums=(1,))
        def apply(x, w: jax.Array):
            return x @ w

    Use instead
        Pass the array as a normal (traced) argument; keep ``static_argnums`` for loop counts,
        flags and other small hashable configuration.

    References
        https://jax.readthedocs.io/en/latest/_autosummary/jax.jit.html
    """

    code = "JAX201"
    name = "static-array-param"
    message = "Parameter `{var}` of {func}() is an array but is declared static"
    fix = "remove `{var}` from static_argnums/static_argnames and pass it as a traced argument; static arguments must be hashable"
    prevents = raises(
        ErrorPattern("ValueError", r"Non-hashable static arguments are not supported"),
        stage="call",
        at="use",
        description="ValueError: Non-hashable static arguments are not supported",
    )
    bad = [
        """
        from functools import partial
        import jax

        @partial(jax.jit, static_argnums=(1,))
        def apply(x, w: jax.Array):  # error: JAX201
            return x @ w
        """
    ]
    good = [
        """
        from functools import partial
        import jax

        @partial(jax.jit, static_argnames=["n"])
        def apply(x: jax.Array, n: int):
            return x * n
        """
    ]

    def check_module(self, m):
        for app, statics in m.analyzer.static_applications():
            f = app.func
            params = list(f.positional_params()) + list(f.params.kwonly_params)
            for p in params:
                if p.name.value in statics and is_array_annotation(p.annotation, f.scope):
                    m.report(self, p, var=p.name.value, func=f.name)
