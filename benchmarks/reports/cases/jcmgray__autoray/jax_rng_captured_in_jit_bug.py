# source: https://github.com/jcmgray/autoray/blob/a0392d6e411bb06769fb1f98d625fe7badcbbb7c/tests/test_random.py#L418
# category: C
# expect: raises
# via: jit-decorator, method, class-attribute
# sink: leaked-tracer
"""autoray's JaxDefaultRNG is a stateful numpy-style generator that splits and stores its key on
every draw; a jitted function that captures a generator created outside it stores a traced key
on the object, every call returns the same values, and the next eager draw hits the leaked tracer."""
import jax
import jax.numpy as jnp


class JaxDefaultRNG:
    """Stateful but deterministic random number generator for JAX (numpy Generator API)."""

    def __init__(self, seed):
        self.key = jax.random.key(seed)

    def normal(self, loc=0.0, scale=1.0, size=None):
        self.key, subkey = jax.random.split(self.key)  # <-- bug
        x = jax.random.normal(subkey, shape=size)
        return x * scale + loc


def default_rng(seed):
    return JaxDefaultRNG(seed)


if __name__ == "__main__":
    rng = default_rng(42)

    @jax.jit
    def f():
        return rng.normal(size=(2, 3))

    x1 = f()
    x2 = f()
    print(bool(jnp.allclose(x1, x2)))
    print(rng.normal(size=(2, 3)))
