# source: https://github.com/jax-ml/jax/issues/39858
# category: B
# expect: raises
# via: partial-jit, static-argnums, method
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

    @partial(jit, static_argnums=0)
    def calc(self, y):
        if self.mul:
            return self.x * y
        return y

    def __hash__(self):
        return hash((self.x, self.mul))

    def __eq__(self, other):
        return isinstance(other, CustomClass) and (self.x, self.mul) == (other.x, other.mul)


if __name__ == "__main__":
    c = CustomClass(jnp.array([2.0, 3.0]), True)
    print(c.calc(3))  # <-- bug
