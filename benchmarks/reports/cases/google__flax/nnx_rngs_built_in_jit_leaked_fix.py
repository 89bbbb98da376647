# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/nnx/rngs_test.py#L68
# category: C
# expect: ok
# via: flax-nnx, jit-decorator
# sink: leaked-tracer
"""The `nnx.Rngs` is returned from an `nnx.jit` function rather than smuggled out through
`nonlocal`, so NNX hands back an object of the outer level that can be drawn from."""
import jax
from flax import nnx


def main():
    @nnx.jit
    def h():
        return nnx.Rngs(1)

    rngs1 = h()
    key = rngs1.params()
    print(jax.random.normal(key, (2,)))


if __name__ == "__main__":
    main()
