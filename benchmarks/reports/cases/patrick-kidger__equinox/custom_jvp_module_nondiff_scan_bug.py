# source: https://github.com/patrick-kidger/equinox/issues/745
# category: C
# expect: raises
# via: equinox, custom-vjp, lax-scan, jit-call, grad
# sink: leaked-tracer
"""An `eqx.Module` holding an array parameter is passed through `nondiff_argnums` of a
`jax.custom_jvp` called inside a `lax.scan` body; under `jit(grad(...))` the module's array is
a tracer that the non-differentiable argument carries out of the scan, and JAX raises
UnexpectedTracerError."""
import functools as ft

import equinox as eqx
import jax
import jax.numpy as jnp
from jax import custom_jvp, grad, jit, lax


class Fun(eqx.Module):
    param: jax.Array

    def __call__(self, x):
        return self.param * jnp.sin(x)


@ft.partial(custom_jvp, nondiff_argnums=(0,))
def f(fun, x, y):
    return fun(x) * y


@f.defjvp
def f_jvp(fun, primals, tangents):
    x, y = primals
    x_dot, y_dot = tangents
    primal_out = f(fun, x, y)
    tangent_out = fun.param * jnp.cos(x) * y * x_dot + fun(x) * y_dot
    return primal_out, tangent_out


def loss(fun, xs):
    def body(carry, x):
        return carry + f(fun, x, 2.0), None  # <-- bug

    out, _ = lax.scan(body, 0.0, xs)
    return out


if __name__ == "__main__":
    fun = Fun(jnp.array(1.0))
    xs = jnp.linspace(0.0, 1.0, 5)
    print(jit(grad(loss, argnums=1))(fun, xs))  # <-- bug
