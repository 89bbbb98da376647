# source: https://github.com/jax-ml/jax/issues/16994
# category: A
# expect: raises
# via: jit-decorator
# sink: shape-from-value
"""`jnp.tile(a, b)` with the repetition counts `b` passed as an array argument works eagerly, but
under jit `b` is a traced array and tile needs concrete counts to know the output shape."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def foo_jit(a, b):
    return jnp.tile(a, b)  # <-- bug


if __name__ == "__main__":
    a = np.ones([1, 4, 4], dtype=np.float32)
    b = np.array([8, 1, 1])
    print(jnp.tile(a, b).shape)
    print(foo_jit(a, b).shape)
