# source: https://github.com/jax-ml/jax/pull/1133
# category: C
# expect: ok
# via: jit-decorator, method, class-attribute, host-loop
# sink: attribute-write
"""The key sequence is advanced on the host and the subkey is passed into the jitted function as
an argument, so each call draws new noise."""
import jax
import jax.numpy as jnp
from jax.random import PRNGKey, split


class PRNGKeySequence(object):
    """A simple wrapper class for the PRNG split functionality."""

    def __init__(self, key=None):
        if key is None:
            key = PRNGKey(0)
        self._key = key

    def next_key(self):
        self._key, subkey = split(self._key)
        return subkey


keys = PRNGKeySequence(PRNGKey(0))


@jax.jit
def add_noise(x, key):
    return x + jax.random.normal(key, x.shape)


if __name__ == "__main__":
    x = jnp.zeros(3)
    for _ in range(3):
        print(add_noise(x, keys.next_key()))
