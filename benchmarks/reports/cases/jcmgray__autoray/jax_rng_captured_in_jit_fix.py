# source: https://github.com/jcmgray/autoray/blob/a0392d6e411bb06769fb1f98d625fe7badcbbb7c/tests/test_random.py#L418
# category: C
# expect: ok
# via: jit-decorator, method, class-attribute
# sink: leaked-tracer
"""As autoray documents for JaxDefaultRNG, the generator used under jit is created inside the jitted
function from a seed passed to it, so its traced key never outlives the trace and the generator
kept outside is only used eagerly."""
import jax
import jax.numpy as jnp


class JaxDefaultRNG:
    """Stateful but deterministic random number generator for JAX (numpy Generator API)."""

    def __init__(self, seed):
        self.key = jax.random.key(seed)

    def normal(self, loc=0.0, scale=1.0, size=None):
        self.key, subkey = jax.random.split(self.key)
        x = jax.random.normal(subkey, shape=size)
        return x * scale + loc


def default_rng(seed):
    return JaxDefaultRNG(seed)


if __name__ == "__main__":
    rng = default_rng(42)

    @jax.jit
    def f(seed):
        inner = default_rng(seed)
        return inner.normal(size=(2, 3))

    x1 = f(0)
    x2 = f(1)
    print(bool(jnp.allclose(x1, x2)))
    print(rng.normal(size=(2, 3)))
