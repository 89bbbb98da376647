# source: https://github.com/jax-ml/jax/issues/5595
# category: B
# expect: raises
# via: jit-decorator, method
# sink: static-spec
"""@jit put straight on a method wraps a two-argument function, so the instance arrives as a traced
argument and jit rejects it as not a valid JAX type; binding self (static_argnums=0) is the fix."""
import jax
from jax import jit


class A1:
    def __init__(self):
        pass

    @jit
    def f(self, x):
        return x


if __name__ == "__main__":
    a = A1()
    print(a.f(5))  # <-- bug
