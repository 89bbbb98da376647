# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/nnx/nn/stochastic_test.py#L25
# category: C
# expect: ok
# via: flax-nnx, jit-decorator
# sink: closure-global
"""The number of steps is counted by the Python loop that calls the `nnx.jit` function; the
traced function only applies the Dropout layer, whose RNG counters are state carried through
the jit."""
import jax.numpy as jnp
from flax import nnx


def main():
    n = 0
    m1 = nnx.Dropout(rate=0.5, deterministic=False, rngs=nnx.Rngs(dropout=0))
    m2 = nnx.Dropout(rate=0.5, deterministic=False)
    rngs2 = nnx.Rngs(dropout=0).fork()

    @nnx.jit
    def f(m, x, rngs=None):
        return m(x, rngs=rngs)

    x = jnp.ones((1, 10))
    for _ in range(2):
        y1 = f(m1, x)
        y2 = f(m2, x, rngs=rngs2)
        n += 2
        print(n, int(m1.rngs.count[...]), int(rngs2.dropout.count[...]), bool(jnp.allclose(y1, y2)))


if __name__ == "__main__":
    main()
