"""JAX2xx: static arguments.

``static_argnums``/``static_argnames`` make a parameter part of the compilation cache key: it
must be hashable, and the spec must name real parameters.  References: ``jax.jit`` API docs;
"ValueError: Non-hashable static arguments are not supported".
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.scopes import CONTAINER_CTORS
from jaxlint.analysis.annotations import is_array_annotation
from jaxlint.analysis.jax_api import STATIC_FUNCS
from jaxlint.analysis.transforms import resolve
from jaxlint.fixes.static_argname import rename_fix
from jaxlint.rules.base import Rule

_NUMPY_MAKERS = frozenset(
    {"array", "asarray", "zeros", "ones", "empty", "full", "arange", "linspace", "eye", "zeros_like", "ones_like"}
)


def describe_unhashable(expr, scope, depth: int = 0) -> Optional[str]:
    """'a list' / 'a dict' / 'a set' / 'an array' for an expression that is surely unhashable."""
    if isinstance(expr, (cst.List, cst.ListComp)):
        return "a list"
    if isinstance(expr, (cst.Dict, cst.DictComp)):
        return "a dict"
    if isinstance(expr, (cst.Set, cst.SetComp)):
        return "a set"
    if isinstance(expr, cst.Call):
        q = resolve(expr.func, scope)
        if q is None and isinstance(expr.func, cst.Name) and scope.lookup_scope(expr.func.value) is None:
            if expr.func.value in ("list", "dict", "set", "bytearray"):
                return "a " + expr.func.value
            return None
        if q is None:
            return None
        if q in CONTAINER_CTORS:
            return "a " + q.rsplit(".", 1)[-1]
        if q.startswith(("jax.numpy.", "jax.random.")) and q not in STATIC_FUNCS:
            if q.rsplit(".", 1)[-1][:1].isupper():
                return None
            return "an array"
        if q.startswith("numpy.") and q[6:] in _NUMPY_MAKERS:
            return "an array"
        return None
    if isinstance(expr, cst.Name) and depth < 3:
        owner = scope.lookup_scope(expr.value)
        if owner is None:
            return None
        binds = owner.bindings.get(expr.value, ())
        if len(binds) == 1 and binds[0].kind == "assign" and binds[0].value is not None:
            return describe_unhashable(binds[0].value, owner, depth + 1)
    return None




def static_arguments(m):
    """(application, argument, parameter name, scope, order) for every argument passed for a
    static parameter at a call site of a jitted function of the module (computed once)."""
    found = m.cache.get("static-arguments")
    if found is not None:
        return found
    found = m.cache["static-arguments"] = []
    where = {id(c): (s, o) for c, s, o in m.index.calls}
    for app in m.finder.applications:
        if not app.transform.statics:
            continue
        statics, opaque = m.analyzer.static_names(app)
        if opaque or not statics:
            continue
        pos = app.jit_positional()
        for call in m.analyzer.call_sites(app):
            so = where.get(id(call))
            if so is None:
                continue
            scope, order = so
            # self.method(...) of a decorated method: self is bound, the arguments start after it
            i = 1 if isinstance(call.func, cst.Attribute) and app.func.is_method and not app.bound_self else 0
            for a in call.args:
                if a.star:
                    break
                if a.keyword is not None:
                    pname = a.keyword.value
                else:
                    pname = pos[i] if i < len(pos) else None
                    i += 1
                if pname in statics:
                    found.append((app, a, pname, scope, order))
    return found


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
    prevents = "ValueError: Non-hashable static arguments are not supported"
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
        for app in m.finder.applications:
            if not app.transform.statics:
                continue
            statics, opaque = m.analyzer.static_names(app)
            if opaque or not statics:
                continue
            f = app.func
            params = list(f.positional_params()) + list(f.params.kwonly_params)
            for p in params:
                if p.name.value in statics and is_array_annotation(p.annotation, f.scope):
                    m.report(self, p, var=p.name.value, func=f.name)


class UnhashableStaticArg(Rule):
    """
    What it does
        Flags a call that passes a list, dict, set or array for a static parameter of a jitted
        function (``static_argnums``, ``static_argnames``, ``pmap``'s
        ``static_broadcasted_argnums``), and a traced value passed for one from inside another
        traced function.

    Why is this bad?
        JAX hashes static arguments to look up the compiled function: ``ValueError:
        Non-hashable static arguments are not supported``.

    Example
        step = jax.jit(update, static_argnums=(1,))
        step(params, [64, 64])

    Use instead
        A tuple (``(64, 64)``), a frozenset, or a scalar; or make the parameter non-static.

    References
        https://jax.readthedocs.io/en/latest/_autosummary/jax.jit.html
    """

    code = "JAX202"
    name = "unhashable-static-arg"
    message = "{what} is passed for static parameter `{var}` of {func}()"
    fix = "pass a hashable value (a tuple instead of a list, a frozenset, a scalar), or make `{var}` a traced argument"
    prevents = "ValueError: Non-hashable static arguments are not supported"
    bad = [
        """
        import jax
        import jax.numpy as jnp

        def mlp(x, sizes):
            for s in sizes:
                x = x[:s]
            return x

        mlp_jit = jax.jit(mlp, static_argnums=(1,))
        mlp_jit(jnp.ones(8), [4, 2])  # error: JAX202
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        def mlp(x, sizes):
            for s in sizes:
                x = x[:s]
            return x

        mlp_jit = jax.jit(mlp, static_argnums=(1,))
        mlp_jit(jnp.ones(8), (4, 2))
        """
    ]

    def on_traced_static_arg(self, ctx, arg, pname, func, v):
        # A jitted function calling another jitted function: a tracer is not hashable either.
        ctx.report(self, arg.value, what=f"Traced value `{v.name or pname}`", var=pname, func=func.name)

    def check_module(self, m):
        for app, arg, pname, scope, _order in static_arguments(m):
            what = describe_unhashable(arg.value, scope)
            if what is not None:
                m.report(self, arg.value, what=what.capitalize(), var=pname, func=app.func.name)


class StaticSpecMismatch(Rule):
    """
    What it does
        Flags ``static_argnums`` indices beyond the function's positional parameters and
        ``static_argnames`` that are not parameter names.

    Why is this bad?
        JAX raises ``ValueError`` when the function is jitted or called; a typo in
        ``static_argnames`` otherwise leaves the intended parameter traced.

    Example
        @partial(jax.jit, static_argnames=["num_step"])
        def run(x, num_steps): ...

    Use instead
        ``static_argnames=["num_steps"]``.

    References
        https://jax.readthedocs.io/en/latest/_autosummary/jax.jit.html
    """

    code = "JAX203"
    name = "static-spec-mismatch"
    message = "{detail}"
    fix = "make static_argnums / static_argnames match the signature of {func}()"
    prevents = "ValueError: Jitted function has invalid argnames / static_argnums"
    fix_safety = "safe"
    bad = [
        """
        from functools import partial
        import jax

        @partial(jax.jit, static_argnames=["num_step"])  # error: JAX203
        def run(x, num_steps):
            return x * num_steps

        def body(x, y):
            return x + y

        body_jit = jax.jit(body, static_argnums=(2,))  # error: JAX203
        """
    ]
    good = [
        """
        from functools import partial
        import jax

        @partial(jax.jit, static_argnames=["num_steps"])
        def run(x, num_steps):
            return x * num_steps

        @partial(jax.jit, static_argnames=["mode"])
        def flexible(x, **kwargs):
            return x
        """
    ]

    def check_module(self, m):
        for app in m.finder.applications:
            if not app.transform.statics or app.statics.opaque:
                continue
            f = app.func
            p = f.params
            pos = app.jit_positional()
            has_star = isinstance(p.star_arg, cst.Param)
            names = set(pos) | {x.name.value for x in p.kwonly_params}
            given = [n for n, _ in app.statics.names]
            for n, node in app.statics.names:
                if n not in names and p.star_kwarg is None:
                    fix = rename_fix(node, n, sorted(names), given)
                    m.report(self, node, detail=f"static_argnames names `{n}`, which is not a parameter of {f.name}()", func=f.name, autofix=fix)
            if has_star:
                continue
            for i, node in app.statics.nums:
                if i >= len(pos) or i < -len(pos):
                    m.report(
                        self,
                        node,
                        detail=f"static_argnums index {i} is out of range: {f.name}() takes {len(pos)} positional argument{'s' if len(pos) != 1 else ''}",
                        func=f.name,
                    )


def _counter_loop_of(scope, name: str, order: int):
    """The order of the ``for`` statement enclosing ``order`` whose target ``name`` counts
    (``for name in range(...)``, ``for name, _ in enumerate(...)``): many distinct values."""
    for b in scope.bindings.get(name, ()):
        if b.kind != "for" or b.order is None or not isinstance(b.value, cst.For):
            continue
        loop = b.value
        it = loop.iter
        if not (isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and scope.lookup_scope(it.func.value) is None):
            continue
        t = loop.target
        counts = (it.func.value == "range" and isinstance(t, cst.Name) and t.value == name) or (
            it.func.value == "enumerate"
            and isinstance(t, cst.Tuple)
            and t.elements
            and isinstance(t.elements[0].value, cst.Name)
            and t.elements[0].value.value == name
        )
        if not counts:
            continue
        for start, end in scope.loops:
            if start == b.order and start <= order <= end:
                return start
    return None


class ChangingStaticArg(Rule):
    """
    What it does
        Flags a loop counter passed for a static parameter of a jitted function inside that
        loop (``for step in range(1000): train(x, step)`` with ``step`` static).  Loops over a
        few literal values (``for mode in ("a", "b")``) are what static arguments are for and
        are not flagged.

    Why is this bad?
        Each new static value is a new cache key: JAX traces and compiles the function again
        on every iteration, which is usually slower than not using ``jit`` at all.

    Example
        step_fn = jax.jit(update, static_argnums=(1,))
        for step in range(1000):
            params = step_fn(params, step)

    Use instead
        Pass the changing value as a traced argument (drop it from ``static_argnums``) and
        branch with ``jnp.where``/``lax.cond`` if needed; keep static arguments for values that
        take a few distinct values.

    References
        https://jax.readthedocs.io/en/latest/jit-compilation.html#caching
    """

    code = "JAX204"
    name = "changing-static-arg"
    message = "Static parameter `{var}` of {func}() gets the loop variable `{arg}`: a new compilation on every iteration"
    fix = "make `{var}` a traced argument (remove it from static_argnums/static_argnames)"
    prevents = "recompilation on every call"
    bad = [
        """
        import jax
        import jax.numpy as jnp

        def update(w, step):
            return w * 0.99 + step

        update_jit = jax.jit(update, static_argnums=(1,))
        w = jnp.ones(3)
        for step in range(5):
            w = update_jit(w, step)  # error: JAX204
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        def update(w, step, mode):
            return w * 0.99 + step if mode == "sgd" else w

        update_jit = jax.jit(update, static_argnums=(2,))
        w = jnp.ones(3)
        for step in range(5):
            w = update_jit(w, step, "sgd")
        """
    ]

    def check_module(self, m):
        for app, arg, pname, scope, order in static_arguments(m):
            if isinstance(arg.value, cst.Name) and _counter_loop_of(scope, arg.value.value, order) is not None:
                m.report(self, arg.value, var=pname, func=app.func.name, arg=arg.value.value)
