"""Which arguments of JAX functions must be concrete Python values: shapes, sizes, axes, counts.

A traced value there cannot be compiled (XLA needs static shapes), so JAX raises at trace time.
The functions' answers are JAX's own (``jax_concrete_args``, written by scripts/jax_tables.py).
"""

from __future__ import annotations

from jaxlint.analysis.jax.jax_concrete_args import CONCRETE_ARGS

# Methods of an array that take an axis.  The table comes from tracing JAX's functions; the
# methods of ``jax.Array`` are not probed (their receiver is the array itself), so they are
# listed here.
REDUCING_METHODS = frozenset(
    {"sum", "mean", "max", "min", "prod", "std", "var", "any", "all", "argmax", "argmin", "cumsum", "cumprod", "squeeze"}
)


def concrete_args(q: str) -> tuple:
    """``(position, name, kind, forms, unless)`` for each argument of ``q`` that must be concrete
    (see ``jax_concrete_args``)."""
    return CONCRETE_ARGS.get(q, ())


def shape_args(q: str) -> tuple:
    """The arguments of ``q`` that set its output shape: ``(position, name, unless)``."""
    return tuple((position, name, unless) for position, name, kind, _forms, unless in CONCRETE_ARGS.get(q, ()) if kind == "shape")
