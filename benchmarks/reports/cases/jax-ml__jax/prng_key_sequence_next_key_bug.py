# source: https://github.com/jax-ml/jax/pull/1133
# category: C
# expect: leaks
# via: jit-decorator, method, class-attribute, host-loop
# sink: attribute-write
"""A small `PRNGKeySequence` helper hands out fresh keys by splitting its stored key and writing
the remainder back to `self._key`.  Called from a jitted function, the split and the write run
once at trace time: every later call reuses the same subkey, so the "random" noise repeats, and
`self._key` is left holding a tracer of the finished trace."""
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
        self._key, subkey = split(self._key)  # <-- bug
        return subkey


keys = PRNGKeySequence(PRNGKey(0))


@jax.jit
def add_noise(x):
    return x + jax.random.normal(keys.next_key(), x.shape)


if __name__ == "__main__":
    x = jnp.zeros(3)
    for _ in range(3):
        print(add_noise(x))
