# source: https://github.com/jax-ml/jax/issues/4798
# category: A
# expect: raises
# via: partial-jit, static-argnums
# sink: shape-from-value
"""A jitted helper caps a static length by the input's length with jnp.minimum and builds an
arange of that size; both operands are Python ints, but jnp.minimum returns a traced array inside
jit, so jnp.arange gets a tracer for its stop."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0,))
def foo(n, x):
    n_aval = jnp.shape(x)[0]
    n_actual = jnp.minimum(n_aval, n)
    return jnp.arange(n_actual) + x[:1]  # <-- bug


if __name__ == "__main__":
    x = jnp.arange(10)
    print(foo(5, x))
    print(foo(5, x * 2))
