"""JAX601: an API that the targeted JAX no longer has."""

from __future__ import annotations

from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises
from jaxlint.rules.migrations._shared import FIX_SAFETY, report_status


class RemovedJaxApi(Rule):
    """
    What it does
        Flags a JAX API that was removed in the JAX release the code targets (``target-jax``,
        by default the newest release jaxlint knows): ``jax.tree_map``, ``jnp.product``,
        ``jax.experimental.host_callback``, ``jax.random.KeyArray``, ``jax.xla_computation``,
        names that moved out of ``jax.core``, and the other entries of jaxlint's migration
        table.  Names are resolved through the imports: ``import jax as jx; jx.tree_map``
        counts, a local function called ``tree_map`` does not.

    Why is this bad?
        The code fails on that JAX: an ``ImportError`` at import, or an ``AttributeError``
        where the name is used.  Most removed names have a direct replacement.

    Example
        import jax
        import jax.numpy as jnp

        total = jnp.product(jnp.arange(1, 4))
        doubled = jax.tree_map(lambda v: 2 * v, {"a": 1})

    Use instead
        total = jnp.prod(jnp.arange(1, 4))
        doubled = jax.tree.map(lambda v: 2 * v, {"a": 1})

    References
        https://docs.jax.dev/en/latest/changelog.html
        https://docs.jax.dev/en/latest/api_compatibility.html
    """

    code = "JAX601"
    fix_safety = FIX_SAFETY
    name = "removed-jax-api"
    message = "`{name}` was removed in JAX {removed}; {advice}"
    fix = "{advice}"
    prevents = raises(
        ErrorPattern("AttributeError"),
        ErrorPattern("ImportError"),
        description="ImportError / AttributeError on the targeted JAX",
        depends_on="the JAX release the code targets",
    )
    bad = [
        """
        import jax
        import jax.numpy as jnp
        import jax.numpy as np_like
        from jax.experimental import host_callback  # error: JAX601

        def total(x):
            return jnp.product(x) + np_like.alltrue(x > 0)  # error: JAX601

        doubled = jax.tree_map(lambda v: 2 * v, {"a": 1})  # error: JAX601@11
        """,
        """
        import jax as jx
        from jax.random import KeyArray  # error: JAX601

        def leaves(tree):
            return jx.tree_leaves(tree)  # error: JAX601
        """,
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        def tree_map(f, tree):
            return jax.tree.map(f, tree)

        total = jnp.prod(jnp.arange(1, 4))
        doubled = tree_map(lambda v: 2 * v, {"a": 1})

        try:
            from jax.experimental import host_callback
        except ImportError:
            host_callback = None

        if hasattr(jax, "tree_map"):
            legacy_map = jax.tree_map
        else:
            legacy_map = jax.tree.map
        """
    ]

    def check_module(self, m):
        report_status(self, m, "removed")
