# source: https://github.com/patrick-kidger/equinox/issues/745
# category: C
# expect: ok
# via: equinox, custom-vjp, lax-scan, jit-call, grad
# sink: leaked-tracer
"""The module is passed to the `jax.custom_jvp` as an ordinary (differentiable) argument instead of
through `nondiff_argnums`, so its array is traced like any other input of the scan body."""
import equinox as eqx
import jax
import jax.numpy as jnp
from jax import custom_jvp, grad, jit, lax


class Fun(eqx.Module):
    param: jax.Array

    def __call__(self, x):
        return self.param * jnp.sin(x)


@custom_jvp
def f(fun, x, y):
    return fun(x) * y


@f.defjvp
def f_jvp(primals, tangents):
    fun, x, y = primals
    fun_dot, x_dot, y_dot = tangents
    primal_out = f(fun, x, y)
    tangent_out = (fun_dot.param * jnp.sin(x) * y + fun.param * jnp.cos(x) * y * x_dot
                   + fun(x) * y_dot)
    return primal_out, tangent_out


def loss(fun, xs):
    def body(carry, x):
        return carry + f(fun, x, 2.0), None

    out, _ = lax.scan(body, 0.0, xs)
    return out


if __name__ == "__main__":
    fun = Fun(jnp.array(1.0))
    xs = jnp.linspace(0.0, 1.0, 5)
    print(jit(grad(loss, argnums=1))(fun, xs))
