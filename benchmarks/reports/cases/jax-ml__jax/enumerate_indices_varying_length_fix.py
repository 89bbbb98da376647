# source: https://github.com/jax-ml/jax/issues/15761
# category: R
# expect: ok
# via: jit-decorator, host-loop
# sink: changing-shape
"""The reporter jitted a function that builds its output by looping over an index array in
Python, and called it from a loop with index arrays of 5, 8 and 10 entries: every new length is
a new input shape, so the function was traced and compiled again for each, and only the calls
that repeated a length ran from the cache.  Giving the function index arrays of one padded
length with a count of the valid entries keeps a single compilation."""
import time

import jax
import jax.numpy as jnp

MAX_INDICES = 10


@jax.jit
def some_func(vec, indices, n_valid):
    out = jnp.zeros(len(indices))
    for idx, j in enumerate(indices):
        out_j = jnp.where(idx < n_valid, vec[j], 0.0)
        out = out.at[idx].set(out_j)
    return out


if __name__ == "__main__":
    x = jnp.arange(20.0)
    for n_indices in [5, 8, 10, 10, 10]:
        li = jnp.zeros(MAX_INDICES, jnp.int32).at[:n_indices].set(jnp.arange(n_indices))
        start = time.perf_counter()
        out = some_func(x, li, jnp.int32(n_indices))
        elapsed = time.perf_counter() - start
        print(n_indices, out.sum(), elapsed >= 0)
