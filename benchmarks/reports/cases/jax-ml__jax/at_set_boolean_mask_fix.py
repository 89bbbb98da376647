# source: https://github.com/jax-ml/jax/issues/21994
# category: A
# expect: ok
# via: jit-call
# sink: boolean-mask
"""The same update written with jnp.where over the rows, which keeps every shape static under
jit."""
import jax
import jax.numpy as jnp


def f(x):
    return x.at[:4].set(jnp.where(jnp.mod(x[0], 2) == 0, 0, x[:4]))


if __name__ == "__main__":
    x = jnp.reshape(jnp.arange(100), (10, 10))
    print(f(x)[:4])
    print(jax.jit(f)(x)[:4])
