# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/nnx/transforms_test.py#L6342
# category: C
# expect: raises
# via: flax-nnx, vmap, factory-closure
# sink: leaked-tracer
"""A function under `nnx.vmap` closes over a module built outside the transform and returns it;
the module's variables belong to the outer trace, so NNX refuses to extract it as an output."""
import jax.numpy as jnp
from flax import nnx


class Foo(nnx.Module):
    def __init__(self):
        self.a = nnx.Variable(jnp.arange(4))


m = Foo()


@nnx.vmap(in_axes=0, out_axes=0)
def f(x):
    return m  # <-- bug


if __name__ == "__main__":
    out = f(jnp.zeros((4,)))  # <-- bug
    print(out.a[...])
