# source: https://openillumi.com/en/en-jax-jit-class-method-stale-cache-fix
# category: C
# expect: stale
# via: jit-call, method
# sink: closure-global
"""Because `@jit` on the method fails on `self`, the user jits the bound method `jit(c.calc)`
instead; it compiles once, and flipping `c.mul` afterwards leaves the compiled function
multiplying as before."""
import jax
import jax.numpy as jnp
from jax import jit


class CustomClass:
    def __init__(self, x, mul):
        self.x = x
        self.mul = mul

    def calc(self, y):
        if self.mul:  # <-- bug
            return self.x * y
        return y


if __name__ == "__main__":
    c = CustomClass(2.0, True)
    calc = jit(c.calc)
    y = jnp.arange(3.0)
    print(calc(y))
    c.mul = False
    print(calc(y))
