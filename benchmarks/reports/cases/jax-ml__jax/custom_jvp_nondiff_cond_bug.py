# source: https://github.com/jax-ml/jax/issues/9374
# category: B
# expect: leaks
# via: custom-vjp, lax-cond, grad
# sink: static-metadata
"""A custom_jvp function with a float in nondiff_argnums is used as a lax.cond branch and
differentiated; the traced nondiff value is cached between the function and its rule and escapes."""
import functools as ft

import jax
import jax.lax as lax


@ft.partial(jax.custom_jvp, nondiff_argnums=(0,))
def f(x, y):
    return y


@f.defjvp
def f_jvp(x, y, tang_y):
    x + 1
    (y,) = y
    (tang_y,) = tang_y
    return y, tang_y


def g(y, x):
    return lax.cond(x < y, f, lambda _x, _y: _y, x, y)  # <-- bug


if __name__ == "__main__":
    print(jax.grad(g)(2.0, 0.5))
