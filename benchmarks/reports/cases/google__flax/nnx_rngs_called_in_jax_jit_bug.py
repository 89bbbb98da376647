# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/nnx/rngs_test.py#L57
# category: C
# expect: raises
# via: flax-nnx, jit-decorator
# sink: attribute-write
"""A `jax.jit` function draws a key from an `nnx.Rngs` it closes over; drawing advances the
stream's RngCount, a write to an object of the outer trace level, and NNX raises
TraceContextError."""
import jax
from flax import nnx


def main():
    rngs = nnx.Rngs(0)

    @jax.jit
    def f():
        return jax.random.normal(rngs.params(), (2,))  # <-- bug

    print(f())


if __name__ == "__main__":
    main()
