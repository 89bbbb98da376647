"""JAX207 nnx-data-in-static-attr."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.facts.nnx_attributes import NnxAttributes
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class NnxDataInStaticAttr(Rule):
    """
    What it does
        Flags an attribute of a Flax NNX module (``nnx.Module``, ``nnx.Pytree``) assigned a
        plain ``list``, ``dict`` or ``tuple`` that holds data: submodules
        (``[nnx.Linear(...) for _ in range(n)]``), ``nnx.Param`` and other Variables, JAX or
        NumPy arrays, an ``nnx.Rngs``; also a list built with ``append`` and then assigned.
        And data assigned to an attribute that ``__init__`` first set to ``None``, a number or
        a string (``self.bias = None`` then ``self.bias = nnx.Param(...)``); data wrapped in
        ``nnx.static(...)``; and data assigned to an attribute the class declares static
        (``a: jax.Array = nnx.static()``, ``a: nnx.Static[...]``), or passed for such a field
        to the constructor of an ``nnx.dataclass``.  NNX checks a value marked static when it
        is set, whatever its type: a 0-d array is refused too.  The write may be in a method of
        the module or on an instance elsewhere.

    Why is this bad?
        NNX decides when an attribute is set whether it is data (a pytree leaf that
        ``nnx.split``, ``nnx.state`` and the NNX transforms see) or static.  Plain containers
        are static, and since Flax 0.12 a static attribute holding data is an error:
        ``ValueError: Found data on value of type '<class 'list'>' assigned to static
        attribute``; an attribute that started static refuses data: ``ValueError: Cannot
        assign data value ... to static attribute``; a value marked static: ``ValueError: Found
        data in value ... annotated with nnx.static(...)``.

    Example
        class MLP(nnx.Module):
            def __init__(self, rngs):
                self.layers = [nnx.Linear(4, 4, rngs=rngs) for _ in range(3)]

    Use instead
        ``nnx.List([...])`` / ``nnx.Dict({...})``, or wrap the value with ``nnx.data(...)`` (or
        declare ``layers: list = nnx.data()`` in the class body).  For an optional
        parameter, set it in one branch each: ``self.bias = nnx.Param(...) if use_bias else
        None``.  Lists and tuples of ints, strings and activation functions are fine as they
        are.

    References
        https://flax.readthedocs.io/en/latest/guides/pytree.html
    """

    code = "JAX207"
    name = "nnx-data-in-static-attr"
    message = "attribute `{var}` of NNX module `{cls}` is assigned {what}{how}; NNX keeps it static and refuses data there"
    fix = "use nnx.List(...) / nnx.Dict(...) or wrap the value with nnx.data(...)"
    prevents = raises(
        ErrorPattern("ValueError", r"assigned to static attribute|(to|in) static attribute '|annotated with nnx\.static"),
        stage="call",
        description="ValueError: Found data on value of type '<class 'list'>' assigned to static attribute",
    )
    bad = [
        """
        import jax
        from flax import nnx

        class MLP(nnx.Module):
            def __init__(self, rngs):
                self.layers = [nnx.Linear(4, 4, rngs=rngs) for _ in range(3)]  # error: JAX207
        """,
        """
        import jax.numpy as jnp
        from flax import nnx

        class Dense(nnx.Module):
            def __init__(self, use_bias):
                self.bias = None
                if use_bias:
                    self.bias = nnx.Param(jnp.zeros(4))  # error: JAX207
        """,
    ]
    good = [
        """
        import jax
        from flax import nnx

        class MLP(nnx.Module):
            def __init__(self, rngs):
                self.layers = nnx.List([nnx.Linear(4, 4, rngs=rngs) for _ in range(3)])
                self.sizes = [4, 4, 4]
        """,
        """
        import jax.numpy as jnp
        from flax import nnx

        class Dense(nnx.Module):
            def __init__(self, use_bias):
                self.bias = nnx.Param(jnp.zeros(4)) if use_bias else None
        """,
        """
        import jax
        from flax import nnx

        class Tower(nnx.Module, experimental_pytree=True):
            def __init__(self, rngs):
                self.layers = [nnx.Linear(4, 4, rngs=rngs) for _ in range(3)]
        """,
    ]

    def check_module(self, m):
        if "nnx" not in m.text:
            return
        for hit in NnxAttributes(m.index, m.analyzer.classes, m.host_values).static_data_writes():
            how = ""
            if hit.marked is not None:
                where = m.positions.get(hit.marked)
                if isinstance(hit.marked, cst.Call):
                    how = " wrapped in nnx.static(...)"
                else:
                    how = " but is declared static" + (f" at line {where.start.line}" if where is not None else "")
            elif hit.first is not None:
                where = m.positions.get(hit.first)
                shown = m.module.code_for_node(hit.first)
                how = f" after it was set to `{shown}`" + (f" at line {where.start.line}" if where is not None else "")
            m.report(self, hit.node, var=f"{hit.owner}.{hit.attr}", cls=hit.cls.name, what=hit.what, how=how)
