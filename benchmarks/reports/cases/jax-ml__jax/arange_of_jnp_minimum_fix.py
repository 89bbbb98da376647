# source: https://github.com/jax-ml/jax/issues/4798
# category: A
# expect: ok
# via: partial-jit, static-argnums
# sink: shape-from-value
"""The cap is computed with Python's min on the two static ints, so the arange length stays a
concrete integer during tracing."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0,))
def foo(n, x):
    n_aval = jnp.shape(x)[0]
    n_actual = min(n_aval, n)
    return jnp.arange(n_actual) + x[:1]


if __name__ == "__main__":
    x = jnp.arange(10)
    print(foo(5, x))
    print(foo(5, x * 2))
