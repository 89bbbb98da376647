# source: https://github.com/google/flax/issues/3997
# category: C
# expect: raises
# via: flax-nnx, jit-call, method
# sink: attribute-write
"""The reporter wraps a stateful NNX module instance directly, `nnx.jit(counter)()`; the module
reaches the jitted call as the callable, not as an argument, so its `__call__` increments a
Variable of the outer trace level and NNX raises TraceContextError."""
import jax.numpy as jnp
from flax import nnx


class Count(nnx.Variable):
    pass


class Counter(nnx.Module):
    def __init__(self):
        self.count = Count(jnp.array(0))

    def __call__(self):
        self.count.value += 1  # <-- bug


if __name__ == "__main__":
    counter = Counter()
    counter()
    nnx.jit(counter)()
    print(counter.count.value)
