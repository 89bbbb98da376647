# source: https://github.com/google/flax/issues/3997
# category: C
# expect: ok
# via: flax-nnx, jit-call, method
# sink: attribute-write
"""The module is passed to the `nnx.jit` function as an argument, so NNX traces its state and
writes the incremented count back to the outer module after the call."""
import jax.numpy as jnp
from flax import nnx


class Count(nnx.Variable):
    pass


class Counter(nnx.Module):
    def __init__(self):
        self.count = Count(jnp.array(0))

    def __call__(self):
        self.count.value += 1


def call(module):
    module()


if __name__ == "__main__":
    counter = Counter()
    counter()
    nnx.jit(call)(counter)
    print(counter.count.value)
