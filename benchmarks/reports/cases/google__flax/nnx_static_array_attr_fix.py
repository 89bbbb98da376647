# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/nnx/module_test.py#L175
# category: B
# expect: ok
# via: flax-nnx, pytree-class, jit-decorator
# sink: static-array
"""Flax's Pytree tests check that an attribute assigned with `nnx.static(...)` may not hold a JAX
array: static attributes go into the pytree's metadata, which jit hashes and compares.  A plain
Python int is hashable and can stay static."""
import jax
import jax.numpy as jnp
from flax import nnx


class Foo(nnx.Pytree):
    def __init__(self):
        self.a = nnx.static(1)
        self.w = nnx.data(jnp.ones(3))


@jax.jit
def scaled(foo, x):
    return foo.w * x + foo.a


if __name__ == "__main__":
    foo = Foo()
    print(scaled(foo, jnp.arange(3.0)))
