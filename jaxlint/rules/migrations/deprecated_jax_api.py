"""JAX602: an API that the targeted JAX still has, but deprecated."""

from __future__ import annotations

from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, warns
from jaxlint.rules.migrations._shared import FIX_SAFETY, report_status


class DeprecatedJaxApi(Rule):
    """
    What it does
        Flags a JAX API that is deprecated, but not yet removed, in the JAX release the code
        targets (``target-jax``): ``jax.experimental.pjit.pjit``,
        ``jax.experimental.shard_map.shard_map``, and, for an older target, names such as
        ``jax.tree_map`` before their removal.  Names are resolved through the imports.

    Why is this bad?
        The call warns with a ``DeprecationWarning`` today and fails with an
        ``AttributeError`` or ``ImportError`` after the release that removes it.

    Example
        from jax.experimental.pjit import pjit

        step = pjit(lambda x: x * 2)

    Use instead
        import jax

        step = jax.jit(lambda x: x * 2)

    References
        https://docs.jax.dev/en/latest/changelog.html
        https://docs.jax.dev/en/latest/api_compatibility.html
    """

    code = "JAX602"
    fix_safety = FIX_SAFETY
    name = "deprecated-jax-api"
    message = "`{name}` is deprecated since JAX {deprecated}{removal}; {advice}"
    fix = "{advice}"
    prevents = warns(ErrorPattern("DeprecationWarning"), "DeprecationWarning now, ImportError / AttributeError after the removal")
    bad = [
        """
        import jax
        import jax.experimental.shard_map as legacy_shard_map
        from jax.experimental.pjit import pjit  # error: JAX602

        step = pjit(lambda x: x * 2)
        mapped = legacy_shard_map.shard_map  # error: JAX602
        """
    ]
    good = [
        """
        import jax
        from jax.experimental import pjit as pjit_module

        step = jax.jit(lambda x: x * 2)
        mapped = jax.shard_map
        shaped = jax.core.ShapedArray((2,), "float32")
        """
    ]

    def check_module(self, m):
        report_status(self, m, "deprecated")
