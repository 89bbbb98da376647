# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/nnx/rngs_test.py#L57
# category: C
# expect: ok
# via: flax-nnx, jit-decorator
# sink: attribute-write
"""The `nnx.Rngs` goes into an `nnx.jit` function as an argument, so the stream's count is
traced state that NNX updates on the outer object after each call."""
import jax
from flax import nnx


def main():
    rngs = nnx.Rngs(0)

    @nnx.jit
    def f(rngs):
        return jax.random.normal(rngs.params(), (2,))

    print(f(rngs))
    print(f(rngs))


if __name__ == "__main__":
    main()
