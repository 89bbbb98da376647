# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/nnx/module_test.py#L1209
# category: B
# expect: ok
# via: flax-nnx, dataclass, jit-decorator
# sink: static-metadata
"""Flax's tests give an `nnx.dataclass` Module a plain `filters: list` field and fill it with
submodules; a plain list attribute of a dataclass Module is static metadata.  Declaring the field
as data (`nnx.data()`) with an `nnx.List` makes the submodules part of the graph state."""
import jax.numpy as jnp
from flax import nnx


class Bar(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)

    def __call__(self, x):
        return self.linear(x)


@nnx.dataclass
class Foo(nnx.Module):
    filters: nnx.List = nnx.data()

    def __call__(self, x):
        for f in self.filters:
            x = f(x)
        return x


@nnx.jit
def forward(model, x):
    return model(x)


if __name__ == "__main__":
    model = Foo(nnx.List([Bar(nnx.Rngs(0)), Bar(nnx.Rngs(1))]))
    print(forward(model, jnp.ones((2, 3))).shape)
