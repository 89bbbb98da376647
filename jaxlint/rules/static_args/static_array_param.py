"""JAX201 static-array-param."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.jax.jax_signatures import concrete_args
from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.traced.annotations import is_array_annotation
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class StaticArrayParam(Rule):
    """
    What it does
        Flags a parameter listed in ``static_argnums``/``static_argnames`` that is annotated as
        an array (``jax.Array``, ``jnp.ndarray``, ``np.ndarray``, jaxtyping ``Float[Array, ...]``).
        Not flagged: a keyword that ``functools.partial`` binds before the jit (the partial
        holds it; no call passes it, so nothing hashes it), and a parameter the body uses as a
        size or a count (``jnp.linspace(0, 1, n)``, ``range(n)``): a Python int there, whatever
        its annotation says.

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

        def render(x, rays: jax.Array):
            return x @ rays

        render_fn = jax.jit(partial(render, rays=jax.numpy.eye(3)), static_argnames=["rays"])

        @partial(jax.jit, static_argnums=(1,))
        def grid(x, n_theta: jax.Array):
            return x * jax.numpy.linspace(0.0, 1.0, n_theta)
        """
    ]

    def check_module(self, m):
        for app, statics in m.analyzer.static_applications():
            f = app.func
            params = list(f.positional_params()) + list(f.params.kwonly_params)
            counts = None
            for p in params:
                name = p.name.value
                # A keyword that ``functools.partial`` bound before the jit is held by the partial
                # and never passed at a call: nothing hashes it.
                if name not in statics or name in app.bound_kw or not is_array_annotation(p.annotation, f.scope):
                    continue
                if counts is None:
                    counts = _counts(m.index, f)
                if name in counts:
                    continue  # used as a size or a count: a Python int, whatever the annotation says
                m.report(self, p, var=name, func=f.name)


def _counts(index, f) -> set:
    """The names the body of ``f`` passes, as they are, where JAX or Python needs a concrete
    integer: a shape, size or count argument (``jnp.linspace(a, b, n)``, ``jnp.zeros(n)``) or a
    bound of ``range``.  An array there would fail, so a parameter used that way is a number."""
    scope = f.body_scope
    out: set = set()
    for call, where, _order in index.calls:
        if where is not scope or scope is None:
            continue
        fx = call.func
        if isinstance(fx, cst.Name) and fx.value == "range" and scope.lookup_scope("range") is None:
            positions, keywords = (0, 1, 2), ()
        else:
            # a concrete array is fine where the values set the output size (``jnp.repeat``'s repeats)
            wanted = [(p, n) for p, n, kind, _forms, _unless in concrete_args(resolve(fx, scope) or "") if kind != "size"]
            positions, keywords = [p for p, _ in wanted if p is not None], {n for _, n in wanted if n}
        positional = [a.value for a in call.args if a.keyword is None and not a.star]
        passed = [positional[i] for i in positions if i < len(positional)]
        passed += [a.value for a in call.args if a.keyword is not None and a.keyword.value in keywords]
        out.update(e.value for e in passed if isinstance(e, cst.Name))
    return out
