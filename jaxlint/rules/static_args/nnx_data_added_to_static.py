"""JAX208 nnx-data-added-to-static."""

from __future__ import annotations

from jaxlint.analysis.facts.nnx_attributes import NnxAttributes
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class NnxDataAddedToStatic(Rule):
    """
    What it does
        Flags, in the ``__init__`` of a Flax NNX module, data added in place to an attribute
        that holds a plain list or dict: ``self.layers = []`` then
        ``self.layers.append(nnx.Linear(...))`` (also ``extend``, ``insert`` and
        ``self.heads[name] = ...``), where the added value is a submodule, an ``nnx.Variable``
        or an array.

    Why is this bad?
        The empty list was static when it was assigned, and it stays static when it is filled.
        Flax checks the static attributes when the constructor returns and refuses data in
        them: ``ValueError: Found unexpected data on value of type <class 'list'> in static
        attribute 'layers'``, raised where the module is built.

    Example
        class MLP(nnx.Module):
            def __init__(self, depth, rngs):
                self.layers = []
                for _ in range(depth):
                    self.layers.append(nnx.Linear(4, 4, rngs=rngs))

    Use instead
        Start from ``nnx.List()`` / ``nnx.Dict()`` (or ``nnx.data([])``), or build a local list
        and assign ``nnx.List(layers)`` once.

    References
        https://flax.readthedocs.io/en/latest/guides/pytree.html
    """

    code = "JAX208"
    name = "nnx-data-added-to-static"
    message = "{what} is added to `{var}` of NNX module `{cls}`, a plain container and so a static attribute; the constructor refuses data there"
    fix = "start `{var}` from nnx.List() / nnx.Dict(), or assign nnx.List(...) once it is built"
    prevents = raises(
        ErrorPattern("ValueError", r"Found unexpected data on value of type .* in static attribute"),
        stage="call",
        at="use",
        description="ValueError: Found unexpected data ... in static attribute (when the module is built)",
    )
    bad = [
        """
        import jax
        from flax import nnx

        class MLP(nnx.Module):
            def __init__(self, depth, rngs):
                self.layers = []
                for _ in range(depth):
                    self.layers.append(nnx.Linear(4, 4, rngs=rngs))  # error: JAX208
        """
    ]
    good = [
        """
        import jax
        from flax import nnx

        class MLP(nnx.Module):
            def __init__(self, depth, rngs):
                self.layers = nnx.List()
                self.sizes = []
                for _ in range(depth):
                    self.layers.append(nnx.Linear(4, 4, rngs=rngs))
                    self.sizes.append(4)
        """
    ]

    def check_module(self, m):
        if "nnx" not in m.text:
            return
        for hit in NnxAttributes(m.index, m.analyzer.classes, m.host_values).static_data_additions():
            what = hit.what[0].upper() + hit.what[1:]
            m.report(self, hit.node, var=f"self.{hit.attr}", cls=hit.cls.name, what=what)
