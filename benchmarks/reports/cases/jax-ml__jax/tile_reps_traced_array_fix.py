# source: https://github.com/jax-ml/jax/issues/16994
# category: A
# expect: ok
# via: jit-decorator, partial-jit, static-argnums
# sink: shape-from-value
"""`jnp.tile(a, b)` under jit with the repetition counts passed as a static tuple of Python ints,
so tile knows the output shape while tracing."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnums=1)
def foo_jit(a, b):
    return jnp.tile(a, b)


if __name__ == "__main__":
    a = np.ones([1, 4, 4], dtype=np.float32)
    b = np.array([8, 1, 1])
    print(jnp.tile(a, b).shape)
    print(foo_jit(a, tuple(int(r) for r in b)).shape)
