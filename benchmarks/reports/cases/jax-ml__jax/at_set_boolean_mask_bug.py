# source: https://github.com/jax-ml/jax/issues/21994
# category: A
# expect: raises
# via: jit-call
# sink: boolean-mask
"""Zeroing entries selected by a boolean mask with x.at[mask].set(0): the mask is computed from a
traced array, and boolean indices must be concrete under jit (NonConcreteBooleanIndexError)."""
import jax
import jax.numpy as jnp


def f(x):
    return x.at[:4, jnp.mod(x[0], 2) == 0].set(0)  # <-- bug


if __name__ == "__main__":
    x = jnp.reshape(jnp.arange(100), (10, 10))
    print(f(x)[:4])
    print(jax.jit(f)(x)[:4])
