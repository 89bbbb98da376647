# source: https://github.com/jax-ml/jax/issues/2048
# category: C
# expect: ok
# via: grad, factory-closure, helper
# sink: closure-global
"""The inner function returns its value instead of rebinding the enclosing `x`, so the product
after the nested derivative uses the outer function's own `x`."""
import jax


def D(f, x):
    return jax.jvp(f, (x,), (1.0,))[1]


def f(x):
    def inner(y):
        z = y
        return z

    return D(inner, x) * x


if __name__ == "__main__":
    print(D(f, 1.0))
