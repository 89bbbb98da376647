# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/nnx/transforms_test.py#L6342
# category: C
# expect: ok
# via: flax-nnx, vmap
# sink: leaked-tracer
"""The module is passed to the transformed function as a broadcast argument and the function
returns an array computed from it, so no captured object crosses the transform's boundary."""
import jax.numpy as jnp
from flax import nnx


class Foo(nnx.Module):
    def __init__(self):
        self.a = nnx.Variable(jnp.arange(4))


m = Foo()


@nnx.vmap(in_axes=(None, 0), out_axes=0)
def f(m, x):
    return m.a[...] + x


if __name__ == "__main__":
    out = f(m, jnp.zeros((4,)))
    print(out)
