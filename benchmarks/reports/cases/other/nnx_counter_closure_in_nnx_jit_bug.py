# source: https://flax.readthedocs.io/en/latest/guides/transforms.html
# category: C
# expect: raises
# via: flax-nnx, jit-decorator, method
# sink: attribute-write
"""A stateful `Counter` module is used by closure inside an `nnx.jit` function; its `increment`
writes the Param of a module that never entered the trace, which would leave a tracer in it, so
NNX raises TraceContextError instead."""
import jax.numpy as jnp
from flax import nnx


class Counter(nnx.Module):
    def __init__(self):
        self.count = nnx.Param(jnp.array(0))

    def increment(self):
        self.count.value += jnp.array(1)  # <-- bug


counter = Counter()


@nnx.jit
def f(x):
    counter.increment()
    return 2 * x


if __name__ == "__main__":
    y = f(3)
    print(y, counter.count.value)
