# source: https://github.com/patrick-kidger/equinox/pull/800
# category: B
# expect: raises
# via: equinox, pytree-class, jit-decorator, host-loop
# sink: static-array
"""Equinox PR #800 (now a warning): users marked a jax.Array field as eqx.field(static=True).
The array becomes part of the pytree structure that filter_jit compares, so the first call
works and the next call with a fresh instance fails while JAX compares the static metadata;
leaving the array as an ordinary field makes it a traced leaf."""
import warnings

import equinox as eqx
import jax
import jax.numpy as jnp

warnings.simplefilter("ignore")


class InvalidArr(eqx.Module):
    a: tuple
    b: jax.Array = eqx.field(static=True)

    def __call__(self, x):
        return x * self.b + len(self.a)


@eqx.filter_jit
def apply(model, x):
    return model(x)


if __name__ == "__main__":
    x = jnp.ones(10)
    for step in range(3):
        model = InvalidArr((), jnp.ones(10) * step)
        print(step, apply(model, x))  # <-- bug
