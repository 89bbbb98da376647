# source: https://github.com/jax-ml/jax/issues/4449
# category: A
# expect: raises
# via: jit-decorator
# sink: shape-from-value
"""A jitted helper sized its output with `jnp.add(arr.size, 1)`; the size is a Python int, but the
jnp operation is staged out under jit and returns a tracer, which `jnp.ones` cannot take as a
shape."""
import jax
import jax.numpy as jnp


@jax.jit
def custom_ones(arr):
    count = jnp.add(arr.size, 1)
    return jnp.ones((count,))  # <-- bug


if __name__ == "__main__":
    a = jnp.ones((3,))
    print(custom_ones(a))
