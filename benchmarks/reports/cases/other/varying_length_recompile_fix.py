# source: https://openillumi.com/en/en-jax-jit-recompile-dynamic-shape-fix
# category: R
# expect: ok
# via: jit-decorator, host-loop
# sink: changing-shape
"""A user's jitted function is called in a loop on arrays of varying length; each array is padded
with zeros to one maximum length first, so every call has the same shape and one compilation."""
import jax
import jax.numpy as jnp

MAX_LEN = 5


@jax.jit
def f(x):
    return jnp.sum(x ** 2)


if __name__ == "__main__":
    for n in range(1, 6):
        x = jnp.arange(n, dtype=jnp.float32)
        x = jnp.pad(x, (0, MAX_LEN - n))
        print(n, f(x))
