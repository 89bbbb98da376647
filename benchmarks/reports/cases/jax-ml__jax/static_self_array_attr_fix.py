# source: https://github.com/jax-ml/jax/issues/39858
# category: B
# expect: ok
# via: partial-jit, static-argnums, method, helper
# sink: static-unhashable
"""The FAQ's 'mark self static' recipe hashes (self.x, self.mul); with x an array, as its annotation
says, the instance cannot be hashed and the jitted method call fails."""
from functools import partial

import jax.numpy as jnp
from jax import jit


class CustomClass:
    def __init__(self, x: jnp.ndarray, mul: bool):
        self.x = x
        self.mul = mul

    def calc(self, y):
        return _calc(self.mul, self.x, y)


@partial(jit, static_argnums=0)
def _calc(mul, x, y):
    if mul:
        return x * y
    return y


if __name__ == "__main__":
    c = CustomClass(jnp.array([2.0, 3.0]), True)
    print(c.calc(3))
