"""Which arguments of JAX functions must be concrete Python values: shapes, sizes, axes, counts.

A traced value there cannot be compiled (XLA needs static shapes), so JAX raises at trace time.
"""

from __future__ import annotations

# Where shape-like arguments go: (positions, keywords).
SHAPE_ARGS = {
    "jax.numpy.zeros": ((0,), ("shape",)),
    "jax.numpy.ones": ((0,), ("shape",)),
    "jax.numpy.empty": ((0,), ("shape",)),
    "jax.numpy.full": ((0,), ("shape",)),
    "jax.numpy.arange": ((0, 1, 2), ("start", "stop", "step")),
    "jax.numpy.linspace": ((2,), ("num",)),
    "jax.numpy.logspace": ((2,), ("num",)),
    "jax.numpy.geomspace": ((2,), ("num",)),
    "jax.numpy.eye": ((0, 1), ("N", "M")),
    "jax.numpy.identity": ((0,), ("n",)),
    "jax.numpy.tri": ((0, 1), ("N", "M")),
    "jax.numpy.reshape": ((1,), ("shape", "newshape")),
    "jax.numpy.broadcast_to": ((1,), ("shape",)),
    "jax.numpy.tile": ((1,), ("reps",)),
    "jax.numpy.resize": ((1,), ("new_shape",)),
    "jax.numpy.zeros_like": ((), ("shape",)),
    "jax.numpy.ones_like": ((), ("shape",)),
    "jax.numpy.empty_like": ((), ("shape",)),
    "jax.numpy.full_like": ((), ("shape",)),
    "jax.random.normal": ((1,), ("shape",)),
    "jax.random.uniform": ((1,), ("shape",)),
    "jax.random.randint": ((1,), ("shape",)),
    "jax.random.exponential": ((1,), ("shape",)),
    "jax.random.gumbel": ((1,), ("shape",)),
    "jax.random.laplace": ((1,), ("shape",)),
    "jax.random.logistic": ((1,), ("shape",)),
    "jax.random.cauchy": ((1,), ("shape",)),
    "jax.random.rademacher": ((1,), ("shape",)),
    "jax.random.bernoulli": ((2,), ("shape",)),
    "jax.random.choice": ((2,), ("shape",)),
    "jax.random.gamma": ((2,), ("shape",)),
    "jax.random.poisson": ((2,), ("shape",)),
    "jax.random.dirichlet": ((2,), ("shape",)),
    "jax.random.truncated_normal": ((3,), ("shape",)),
    "jax.random.beta": ((3,), ("shape",)),
    "jax.random.multivariate_normal": ((3,), ("shape",)),
    "jax.lax.dynamic_slice": ((2,), ("slice_sizes",)),
    "jax.lax.broadcast": ((1,), ("sizes",)),
    "jax.lax.iota": ((1,), ("size",)),
    "jax.lax.full": ((0,), ("shape",)),
}


# Arguments that must be static Python values (axes, counts, sizes): (positions, keywords).
STATIC_VALUE_ARGS = {
    "jax.numpy.expand_dims": ((1,), ("axis",)),
    "jax.numpy.squeeze": ((1,), ("axis",)),
    "jax.numpy.moveaxis": ((1, 2), ("source", "destination")),
    "jax.numpy.swapaxes": ((1, 2), ("axis1", "axis2")),
    "jax.numpy.transpose": ((1,), ("axes",)),
    "jax.numpy.concatenate": ((1,), ("axis",)),
    "jax.numpy.stack": ((1,), ("axis",)),
    "jax.numpy.split": ((1, 2), ("indices_or_sections", "axis")),
    "jax.numpy.array_split": ((1, 2), ("indices_or_sections", "axis")),
    "jax.numpy.pad": ((1,), ("pad_width",)),
    "jax.numpy.triu": ((1,), ("k",)),
    "jax.numpy.tril": ((1,), ("k",)),
    "jax.nn.one_hot": ((1,), ("num_classes",)),
    "jax.lax.top_k": ((1,), ("k",)),
}

for _name in ("sum", "mean", "max", "min", "prod", "std", "var", "any", "all", "argmax", "argmin", "cumsum", "cumprod", "median", "nansum", "nanmean", "nanmax", "nanmin", "count_nonzero", "flip", "sort", "argsort"):
    STATIC_VALUE_ARGS["jax.numpy." + _name] = ((1,), ("axis",))

# Methods that reduce over (or reorder) axes given as arguments.
REDUCING_METHODS = frozenset(
    {"sum", "mean", "max", "min", "prod", "std", "var", "any", "all", "argmax", "argmin", "cumsum", "cumprod", "squeeze"}
)


# Functions whose output size depends on the data unless ``size=`` is given.
NEEDS_SIZE = frozenset(
    {
        "jax.numpy.nonzero",
        "jax.numpy.argwhere",
        "jax.numpy.flatnonzero",
        "jax.numpy.unique",
        "jax.numpy.unique_values",
        "jax.numpy.unique_counts",
        "jax.numpy.unique_inverse",
        "jax.numpy.unique_all",
    }
)
