# source: https://github.com/jax-ml/jax/issues/3620
# category: A
# expect: ok
# via: jit-call, static-argnums
# sink: shape-from-value
"""The pad size is a static argument and the width table a plain Python structure, so jnp.pad
sees concrete widths under jit."""
import jax
import jax.numpy as jnp
import numpy as np


def pad_last_dim(array, pad_size):
    ndim = jnp.ndim(array)
    npad = [(0, 0)] * ndim
    npad[ndim - 1] = (0, pad_size)
    return jnp.pad(array, npad, "constant", constant_values=0)


if __name__ == "__main__":
    vals = np.random.RandomState(0).randn(5, 10)
    print(pad_last_dim(vals, 1).shape)
    print(jax.jit(pad_last_dim, static_argnums=1)(vals, 1).shape)
