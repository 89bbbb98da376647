# source: https://github.com/jax-ml/jax/issues/2294
# category: B
# expect: raises
# via: partial-jit, static-argnums, helper
# sink: static-array
"""A helper that draws noise marks its PRNG key as a static argument, expecting a new key to
give a new compilation; a key is a device array, which cannot be hashed, so the jitted call
is rejected instead of compiling."""
from functools import partial

import jax
import jax.numpy as jnp
from jax.random import PRNGKey


@partial(jax.jit, static_argnums=(0,))
def f(rng, x):
    return x + jax.random.normal(rng, x.shape)


if __name__ == "__main__":
    a = PRNGKey(10)
    b = PRNGKey(10)
    x = jnp.zeros(3)
    print(f(a, x))  # <-- bug
    print(f(b, x))
