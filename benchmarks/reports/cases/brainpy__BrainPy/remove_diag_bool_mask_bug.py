# source: https://github.com/brainpy/BrainPy/commit/fb09982b600286e4a5738b5a28aad1da1119881c
# category: A
# expect: raises
# via: helper, jit-call, vmap
# sink: boolean-mask
"""BrainPy's `remove_diag` built a boolean matrix of ones, cleared its diagonal in place and
indexed the input with it; under jit/vmap that mask is a traced array, so boolean indexing has no
static size.  The fix computes the off-diagonal row and column indices with NumPy and gathers."""
import numpy as np
import jax
import jax.numpy as jnp


def fill_diagonal(a, val):
    m, n = a.shape
    i = jnp.arange(min(m, n))
    return a.at[i, i].set(val)


def remove_diag(arr):
    if arr.ndim != 2:
        raise ValueError(f'Only support 2D matrix, while we got a {arr.ndim}D array.')
    eyes = jnp.ones(arr.shape, dtype=bool)
    eyes = fill_diagonal(eyes, False)
    return jnp.reshape(arr[eyes], (arr.shape[0], arr.shape[1] - 1))  # <-- bug


@jax.jit
def recurrent_weights(w):
    return jax.vmap(remove_diag)(w)


if __name__ == "__main__":
    w = jnp.arange(2 * 4 * 4, dtype=jnp.float32).reshape(2, 4, 4)
    print(recurrent_weights(w))
