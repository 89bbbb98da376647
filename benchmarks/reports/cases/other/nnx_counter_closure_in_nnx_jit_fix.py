# source: https://flax.readthedocs.io/en/latest/guides/transforms.html
# category: C
# expect: ok
# via: flax-nnx, jit-decorator, method
# sink: attribute-write
"""As the guide says, the module is passed to the `nnx.jit` function as an argument, so NNX
traces its state and propagates the incremented count back to `counter`."""
import jax.numpy as jnp
from flax import nnx


class Counter(nnx.Module):
    def __init__(self):
        self.count = nnx.Param(jnp.array(0))

    def increment(self):
        self.count.value += jnp.array(1)


counter = Counter()


@nnx.jit
def f(counter, x):
    counter.increment()
    return 2 * x


if __name__ == "__main__":
    y = f(counter, 3)
    print(y, counter.count.value)
