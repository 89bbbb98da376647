# source: https://github.com/jax-ml/jax/issues/4449
# category: A
# expect: ok
# via: jit-decorator
# sink: shape-from-value
"""A jitted helper sizes its output with plain Python arithmetic on the static `arr.size`, so the
count stays a Python int and `jnp.ones` gets a concrete shape."""
import jax
import jax.numpy as jnp


@jax.jit
def custom_ones(arr):
    count = arr.size + 1
    return jnp.ones((count,))


if __name__ == "__main__":
    a = jnp.ones((3,))
    print(custom_ones(a))
