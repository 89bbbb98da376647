# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/jax_utils_test.py#L84
# category: R
# expect: ok
# via: jit-decorator, wrapper, host-loop
# sink: changing-shape
"""The test as written: every call passes min_device_batch=9, so each batch is padded to the same
size per device and the jitted `add` compiles once for all batch sizes."""
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
        y = add(x, 10 * x, min_device_batch=9)
        print(bs, np.asarray(y).sum())
