# source: https://github.com/jax-ml/jax/pull/4661
# category: B
# expect: raises
# via: partial-jit, static-argnums
# sink: static-array
"""A NumPy array is passed in a static_argnums position of f; the PR first warned that such a
non-hashable static argument leads to cache misses, and jit now rejects it with a ValueError."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnums=1)
def f(x, weights):
    return x * weights.sum()


if __name__ == "__main__":
    x = jnp.ones(3)
    print(f(x, np.array([1.0, 2.0, 3.0])))  # <-- bug
