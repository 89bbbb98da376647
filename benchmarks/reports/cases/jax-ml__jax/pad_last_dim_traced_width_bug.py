# source: https://github.com/jax-ml/jax/issues/3620
# category: A
# expect: raises
# via: jit-call
# sink: shape-from-value
"""A helper pads the last axis by building the pad-width table as a jnp array and writing the pad
size into it; under jit the table is traced, and jnp.pad needs concrete widths to know the output
shape."""
import jax
import jax.numpy as jnp
import numpy as np


def pad_last_dim(array, pad_size):
    ndim = jnp.ndim(array)
    npad = jnp.zeros((ndim, 2), dtype=jnp.int32)
    axis = ndim - 1
    npad = npad.at[axis, 1].set(pad_size)
    return jnp.pad(array, npad, "constant", constant_values=0)  # <-- bug


if __name__ == "__main__":
    vals = np.random.RandomState(0).randn(5, 10)
    print(pad_last_dim(vals, 1).shape)
    print(jax.jit(pad_last_dim)(vals, 1).shape)
