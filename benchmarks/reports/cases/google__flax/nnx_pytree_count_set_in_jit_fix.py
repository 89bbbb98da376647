# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/nnx/mutable_array_test.py#L570
# category: C
# expect: ok
# via: flax-nnx, jit-decorator, pytree-class
# sink: attribute-write
"""`params` is passed to the `jax.jit` function as a pytree argument and the updated copy is
returned and rebound, so nothing of the outer level is written from inside the trace."""
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
    def f(params: Params):
        params.count = 1
        return params

    params = f(params)
    print(params.count)


if __name__ == "__main__":
    main()
