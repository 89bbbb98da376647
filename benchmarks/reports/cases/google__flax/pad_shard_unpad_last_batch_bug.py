# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/jax_utils_test.py#L84
# category: R
# expect: recompiles
# via: jit-decorator, wrapper, host-loop
# sink: changing-shape
"""Flax's test of jax_utils.pad_shard_unpad: a jitted `add` is called through the padding wrapper
for a series of batch sizes; padded only to a multiple of the device count, each new batch size
is a new shape and a new compilation, which the test avoids with min_device_batch."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from flax import jax_utils

NDEV = 4
BATCH_SIZES = [NDEV, NDEV + 1, NDEV - 1, 2 * NDEV]


@partial(jax_utils.pad_shard_unpad, static_argnums=())
@jax.jit
def add(a, b):
    b = jnp.asarray(b, dtype=jnp.float32)
    return a + b


if __name__ == "__main__":
    for bs in BATCH_SIZES:
        x = jnp.arange(bs, dtype=jnp.float32)
        y = add(x, 10 * x)  # <-- bug
        print(bs, np.asarray(y).sum())
