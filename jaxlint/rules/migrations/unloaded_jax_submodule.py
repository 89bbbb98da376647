"""JAX603: an attribute path into a JAX submodule that nothing has imported."""

from __future__ import annotations

from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class UnloadedJaxSubmodule(Rule):
    """
    What it does
        Flags an attribute path such as ``jax.experimental.checkify.checkify`` in a module that
        only does ``import jax``, when ``import jax`` does not load that submodule (per jaxlint's
        table computed from the newest JAX) and the module never imports it.  It stays silent
        when the module imports any library besides JAX and the standard library, or uses a
        relative import (either may load the submodule first), and inside annotations.

    Why is this bad?
        A submodule is an attribute of its package only once something imports it.  The code
        fails with ``AttributeError: module 'jax.experimental' has no attribute 'checkify'``,
        or works only because some other module happened to import it first.

    Example
        import jax

        def safe_div(x, y):
            return jax.experimental.checkify.checkify(lambda a, b: a / b)(x, y)

    Use instead
        import jax
        from jax.experimental import checkify

        def safe_div(x, y):
            return checkify.checkify(lambda a, b: a / b)(x, y)

    References
        https://docs.python.org/3/reference/import.html#submodules
    """

    code = "JAX603"
    name = "unloaded-jax-submodule"
    status = "preview"
    message = "`{name}` is not loaded by `import jax`, and this module never imports `{module}`"
    fix = "add `import {module}` (or `from {parent} import {last}`)"
    prevents = raises(
        ErrorPattern("AttributeError"),
        description="AttributeError: the submodule is not an attribute until imported",
        depends_on="whether another import loaded the submodule",
    )
    bad = [
        """
        import jax

        def safe_div(x, y):
            return jax.experimental.checkify.checkify(lambda a, b: a / b)(x, y)  # error: JAX603
        """
    ]
    good = [
        """
        import jax
        import jax.experimental.checkify

        def safe_div(x, y):
            return jax.experimental.checkify.checkify(lambda a, b: a / b)(x, y)
        """,
        """
        import jax
        import numpy as np

        def safe_div(x, y):
            return jax.experimental.checkify.checkify(lambda a, b: a / b)(x, y)
        """,
        """
        import jax

        total = jax.numpy.sum(jax.nn.relu(jax.numpy.ones(3)))
        """,
    ]

    def check_module(self, m):
        for ref in m.unloaded_submodules:
            parent, _, last = ref.unloaded.rpartition(".")
            m.report(self, ref.node, name=ref.written, module=ref.unloaded, parent=parent, last=last)
