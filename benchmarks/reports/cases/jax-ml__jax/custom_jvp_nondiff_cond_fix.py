# source: https://github.com/jax-ml/jax/issues/9374
# category: B
# expect: ok
# via: custom-vjp, lax-cond, grad
# sink: static-metadata
"""A custom_jvp function with a float in nondiff_argnums is used as a lax.cond branch and
differentiated; the traced nondiff value is cached between the function and its rule and escapes."""
import jax
import jax.lax as lax


@jax.custom_jvp
def f(x, y):
    return y


@f.defjvp
def f_jvp(primals, tangents):
    x, y = primals
    _, tang_y = tangents
    x + 1
    return y, tang_y


def g(y, x):
    return lax.cond(x < y, f, lambda _x, _y: _y, x, y)


if __name__ == "__main__":
    print(jax.grad(g)(2.0, 0.5))
