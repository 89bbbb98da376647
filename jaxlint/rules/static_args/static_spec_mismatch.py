"""JAX203 static-spec-mismatch."""

from __future__ import annotations

import libcst as cst

from jaxlint import fixes
from jaxlint.analysis.syntax.nodes import keyword_value
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class StaticSpecMismatch(Rule):
    """
    What it does
        Flags ``static_argnums`` indices beyond the function's positional parameters and
        ``static_argnames`` that are not parameter names; and a call of a ``jax.pmap``
        function that passes fewer positional arguments than its
        ``static_broadcasted_argnums`` reach (a static argument given by keyword: pmap,
        unlike jit, takes static arguments by position only).  A spec bound to a name first
        (``names = ("n",)``, then ``jax.jit(f, static_argnames=names)``) is reported where the
        transform is applied, which is where JAX refuses it.

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
    prevents = raises(
        ErrorPattern("ValueError", r"Jitted function has (invalid argnames|static_argnums)"),
        ErrorPattern("ValueError", r"static broadcasted arguments must be passed positionally"),
        stage="call",
        description="ValueError: Jitted function has invalid argnames / static_argnums",
    )
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

        shift = jax.pmap(body, static_broadcasted_argnums=(1,))
        shift(jax.numpy.ones((1, 3)), y=1.0)  # error: JAX203
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
            if not app.transform.statics or app.statics.opaque or app.leading:
                continue  # a library-made callable (``model.apply``) takes ``*args, **kwargs``: any name or index
            f = app.func
            p = f.params
            pos = app.jit_positional()
            has_star = isinstance(p.star_arg, cst.Param)
            # A positional-only parameter has no name a caller can pass it by, so none to
            # make it static by: JAX refuses the name, ``**kwargs`` or not.
            posonly = {x.name.value for x in p.posonly_params}
            names = (set(pos) - posonly) | {x.name.value for x in p.kwonly_params}
            given = [n for n, _ in app.statics.names]
            for n, node in app.statics.names:
                if n in posonly or n not in names and p.star_kwarg is None:
                    # (positions are computed only for a finding)
                    at, related = _applied_at(m, app, node, "static_argnames", f"`{n}` is named here")
                if n in posonly:
                    m.report(self, at, detail=f"static_argnames names `{n}`, which is positional-only in {f.name}(): use static_argnums", func=f.name, related=related)
                elif n not in names and p.star_kwarg is None:
                    fix = fixes.static_argname.rename_fix(node, n, sorted(names), given)
                    m.report(self, at, detail=f"static_argnames names `{n}`, which is not a parameter of {f.name}()", func=f.name, autofix=fix, related=related)
            if has_star:
                continue
            if app.transform.label == "pmapped":
                self._keyword_statics(m, app)
            for i, node in app.statics.nums:
                if i >= len(pos) or i < -len(pos):
                    at, related = _applied_at(m, app, node, "static_argnums", f"index {i} is written here")
                    m.report(
                        self,
                        at,
                        detail=f"static_argnums index {i} is out of range: {f.name}() takes {len(pos)} positional argument{'s' if len(pos) != 1 else ''}",
                        func=f.name,
                        related=related,
                    )

    def _keyword_statics(self, m, app):
        """pmap reads ``static_broadcasted_argnums`` off the positional arguments only: a call
        that passes fewer of them than the largest index needs is refused ("All static
        broadcasted arguments must be passed positionally")."""
        nums = [i for i, _node in app.statics.nums]
        if not nums or min(nums) < 0 or app.func.is_method or app.statics.names:
            return
        needed = max(nums) + 1
        for call, _scope in m.analyzer.call_sites_with_scopes(app):
            if any(a.star for a in call.args):
                continue
            given = sum(1 for a in call.args if a.keyword is None)
            if given < needed:
                m.report(
                    self, call,
                    detail=f"{app.func.name}() is pmapped with static_broadcasted_argnums={tuple(sorted(set(nums)))} but called with {given} positional argument{'s' if given != 1 else ''}: pmap takes static arguments by position only",
                    func=app.func.name,
                )


def _applied_at(m, app, node, keyword: str, note: str):
    """Where to report a wrong entry of a static spec: JAX refuses the spec where the transform
    is applied, so an entry written elsewhere (``names = ("a", "b")`` bound before
    ``jax.jit(f, static_argnames=names)``) is reported at the application's argument, with
    where it is written; an entry written in that argument, where it is."""
    site = app.site.decorator if isinstance(app.site, cst.Decorator) else app.site
    if not isinstance(site, cst.Call):
        return node, ()
    arg = keyword_value(site.args, keyword)
    where, inside = m.positions.get(node), m.positions.get(arg) if arg is not None else None
    if where is None or inside is None or (inside.start.line, inside.start.column) <= (where.start.line, where.start.column) <= (inside.end.line, inside.end.column):
        return node, ()
    return arg, ((node, note),)
