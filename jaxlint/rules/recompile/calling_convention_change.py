"""JAX403 calling-convention-change."""

from __future__ import annotations

import libcst as cst

from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import recompiles


class CallingConventionChange(Rule):
    """
    What it does
        Flags a call of a jitted function that passes a parameter by keyword when an earlier
        call of the same jitted function in the same function body (or at module level) passes
        it by position, or the reverse.  A jitted function made once for the module (a
        decorator or ``jax.jit(f)`` at the top level or in a class body) is one object with one
        cache for every function that calls it: the first call in each function is compared
        with the module's first call (in the file's order) in another function, whatever order
        they run in.  A ``functools.partial`` of the jitted function counts for the arguments
        it binds (``partial(step, lr=lr)`` passes ``lr`` by keyword).  Calls inside traced code
        (traced once with their caller), calls with ``*args``/``**kwargs``, and calls of a jit
        made inside a function (made again each time the function runs, not provably one
        cache) in two different functions are not compared.

    Why is this bad?
        ``jax.jit`` keys its cache on the positional and the keyword arguments separately, so
        ``step(params, batch, lr)`` and ``step(params, batch, lr=lr)`` are two cache entries:
        the second call traces and compiles the function again, with the same shapes and
        values.  The same holds for ``static_argnames`` and for ``nnx.jit``.
        (``equinox.filter_jit`` binds the arguments to the signature first and is not flagged.)

    Example
        @jax.jit
        def train_step(params, batch, lr):
            ...

        params = train_step(params, first_batch, 0.1)
        for batch in batches:
            params = train_step(params, batch, lr=0.1)   # compiles again

    Use instead
        Pass each parameter the same way at every call: always by position or always by
        keyword.

    References
        https://docs.jax.dev/en/latest/jit-compilation.html#caching
    """

    code = "JAX403"
    name = "calling-convention-change"
    message = "`{param}` is passed to {func}() {now} here and {was} {where}: a second cache entry, and a second compilation"
    fix = "pass `{param}` the same way at every call of {func}() (always by position or always by keyword)"
    prevents = recompiles("a compilation per calling convention")
    bad = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def scale(x, factor):
            return x * factor

        x = jnp.ones(3)
        y = scale(x, 2.0)
        z = scale(x, factor=2.0)  # error: JAX403
        """
    ]
    good = [
        """
        import equinox as eqx
        import jax
        import jax.numpy as jnp

        @jax.jit
        def scale(x, factor):
            return x * factor

        def shift(x, offset):
            return x + offset

        shift_jit = eqx.filter_jit(shift)

        x = jnp.ones(3)
        options = {"factor": 5.0}
        y = scale(x, factor=2.0)
        z = scale(x, factor=3.0)
        w = scale(x, factor=4.0)
        v = scale(x, **options)  # either way: not judged
        a = shift_jit(x, 1.0)
        b = shift_jit(x, offset=1.0)
        """
    ]

    def check_module(self, m):
        for change in m.convention_changes:
            how = lambda kw: "by keyword" if kw else "by position"  # noqa: E731
            first = change.first.value if isinstance(change.first, cst.Arg) else change.first
            where = "at an earlier call"
            if change.first_scope is not None:
                where = f"at a call in {_scope_name(change.first_scope)}"
            related = [(first, f"`{change.param}` is passed {how(not change.by_keyword)} here")]
            m.report(
                self,
                change.arg,
                param=change.param,
                func=change.app.func.name,
                now=how(change.by_keyword),
                was=how(not change.by_keyword),
                where=where,
                related=related,
                convention=change,
            )


def _scope_name(scope) -> str:
    if scope.kind == "module":
        return "the module's top level"
    if scope.kind == "function" and scope.func is not None:
        return f"{scope.func.qualname}()"
    return f"the body of {scope.name}"
