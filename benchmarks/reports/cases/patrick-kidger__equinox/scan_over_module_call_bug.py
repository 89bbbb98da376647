# source: https://github.com/patrick-kidger/equinox/blob/9336d820b2ef66b360fc6cb3611b3da5cefbb14d/docs/faq.md#L186
# category: B
# expect: raises
# via: equinox, lax-scan, pytree-class, jit-call
# sink: static-unhashable
"""Equinox's FAQ: scanning a Module's __call__ directly, `jax.lax.scan(cell, ...)`, makes JAX hash
the scanned callable, and a Module holding arrays hashes its arrays, which fails with an
unhashable-type error; wrapping the call in a lambda scans a plain function instead."""
import equinox as eqx
import jax
import jax.numpy as jnp


class Cell(eqx.Module):
    weight: jax.Array

    def __call__(self, carry, x):
        carry = jnp.tanh(self.weight @ carry + x)
        return carry, carry


@eqx.filter_jit
def run(cell, init, xs):
    final, history = jax.lax.scan(cell, init, xs)  # <-- bug
    return final, history


if __name__ == "__main__":
    cell = Cell(0.5 * jnp.eye(3))
    final, history = run(cell, jnp.zeros(3), jnp.ones((4, 3)))
    print(final, history.shape)
