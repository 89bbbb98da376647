"""JAX206 array-in-static-metadata."""

from __future__ import annotations

from jaxlint.analysis.facts.static_metadata import arrays_in_metadata, fresh_arrays_at_calls
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class ArrayInStaticMetadata(Rule):
    """
    What it does
        Flags a static metadata field of a pytree class that holds an array:
        ``eqx.field(static=True)`` / ``eqx.static_field()``, ``flax.struct.field(pytree_node=
        False)``, ``jax_dataclasses.Static[...]``, the ``meta_fields`` of
        ``jax.tree_util.register_dataclass``, or the aux data returned by a custom
        ``tree_flatten``.  The field holds an array when its annotation says so (``jax.Array``,
        ``jnp.ndarray``, ``np.ndarray``, jaxtyping ``Float[Array, "n"]``), when ``__init__``
        assigns an array to it, or when a construction of the class in the module passes one.

    Why is this bad?
        Static metadata is part of the treedef: ``jit`` compares it with ``==`` to find the
        compiled function for a call.  For an array ``==`` gives an array, whose truth value is
        ambiguous, so the first call with another instance fails: ``ValueError: Exception
        raised while checking equality of metadata fields of pytree`` (under ``eqx.filter_jit``:
        ``static arguments should be comparable using __eq__``).  Until then the array is not
        traced at all: it is a constant of the compiled function, and gradients do not reach it.
        Equinox only warns when such a field is set ("A JAX array is being set as static!"),
        and a program that keeps passing the same instance seems to work; the failure comes
        with the first new instance (a reloaded checkpoint, a second model), so the field is
        flagged where it is declared or filled.  A 0-d array compares like a bool and does not
        fail; scalar constructors such as ``jnp.float32(1.0)`` are not taken as evidence.
        Where the module itself makes that second call (a jitted function called in a loop,
        or twice in a row, each time with an instance built with a new array in the field),
        the call is flagged too: JAX raises there.

    Example
        class Linear(eqx.Module):
            weight: jax.Array
            mask: jax.Array = eqx.field(static=True)

    Use instead
        Make the array a leaf (drop ``static=True`` / ``pytree_node=False``; return it among
        the children of ``tree_flatten``), and wrap it with ``jax.lax.stop_gradient`` if it
        must not be trained.  Keep static fields for hashable configuration: ints, strings,
        tuples, activation functions.

    References
        https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.register_dataclass.html
        https://docs.kidger.site/equinox/api/module/field/
    """

    code = "JAX206"
    name = "array-in-static-metadata"
    message = "static metadata field `{var}` of {cls} holds an array{detail}; jit compares metadata with `==`, which fails for arrays"
    fix = "make `{var}` a pytree leaf (not static); keep static fields for hashable configuration"
    prevents = raises(
        ErrorPattern("ValueError", r"checking equality of metadata fields|static arguments should be comparable"),
        stage="call",
        at="use",
        description="ValueError: Exception raised while checking equality of metadata fields of pytree",
    )
    bad = [
        """
        import equinox as eqx
        import jax

        class Linear(eqx.Module):
            weight: jax.Array
            mask: jax.Array = eqx.field(static=True)  # error: JAX206
        """,
        """
        import jax.numpy as jnp
        from flax import struct

        @struct.dataclass
        class Normalizer:
            scale: float
            mean: object = struct.field(pytree_node=False)

        norm = Normalizer(2.0, jnp.zeros(3))  # error: JAX206
        """,
        """
        import jax
        import jax_dataclasses as jdc

        @jdc.pytree_dataclass
        class Box:
            center: jax.Array
            corners: jdc.Static[jax.Array]  # error: JAX206
        """,
        """
        import jax
        import jax.numpy as jnp
        import numpy as np

        @jax.tree_util.register_pytree_node_class
        class Scaled:
            def __init__(self, x, w):
                self.x = x
                self.w = w

            def tree_flatten(self):
                return (self.x,), (self.w,)

            @classmethod
            def tree_unflatten(cls, aux, children):
                return cls(children[0], *aux)

        @jax.jit
        def apply(s):
            return s.x * s.w.sum()

        for i in range(3):
            s = Scaled(jnp.ones(3), np.arange(3.0))  # error: JAX206
            apply(s)  # error: JAX206
        """,
    ]
    good = [
        """
        import equinox as eqx
        import jax

        class Linear(eqx.Module):
            weight: jax.Array
            mask: jax.Array
            features: int = eqx.field(static=True)
        """,
        """
        import jax.numpy as jnp
        from flax import struct

        @struct.dataclass
        class Normalizer:
            mean: jnp.ndarray
            scale: float = struct.field(pytree_node=False)

        norm = Normalizer(jnp.zeros(3), jnp.float32(2.0))
        """,
    ]

    def check_module(self, m):
        for hit in arrays_in_metadata(m.host_values):
            m.report(self, hit.node, var=hit.field, cls=hit.cls.name, detail="", related=list(hit.related))
        for call in fresh_arrays_at_calls(m.host_values, m.analyzer, m.module, lambda: m.spans):
            where = "the previous call" if call.earlier is None else "the earlier call"
            related = [(call.value, f"a new array is put into `{call.field}` here")]
            if call.earlier is not None:
                related.append((call.earlier, "the earlier call, with another array there"))
            m.report(
                self, call.arg, var=call.field, cls=call.cls.name,
                detail=f" made anew for this call of {call.func.name}(), compared with the one of {where}",
                related=related,
            )
