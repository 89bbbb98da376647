# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/nnx/mutable_array_test.py#L570
# category: C
# expect: raises
# via: flax-nnx, jit-decorator
# sink: attribute-write
"""A `Params` nnx.Pytree with a `count` data field is captured by a `jax.jit` function that sets
`params.count`; the object lives at the outer trace level and NNX raises TraceContextError."""
import jax
import jax.numpy as jnp
from flax import nnx


class Params(nnx.Pytree):
    def __init__(self, din: int, dout: int):
        self.w = jnp.zeros((din, dout), jnp.float32)
        self.b = jnp.zeros((dout,), jnp.float32)
        self.count = nnx.data(0)


def main():
    params = Params(3, 4)

    @jax.jit
    def f():
        params.count = 1  # <-- bug

    f()
    print(params.count)


if __name__ == "__main__":
    main()
