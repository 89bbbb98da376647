# source: https://github.com/jax-ml/jax/issues/3755
# category: R
# expect: recompiles
# via: jit-decorator, custom-vjp, host-loop
# sink: fresh-callable
"""The VJP function of a custom_vjp function is passed into a jitted function; every fresh vjp
closure flattens to a pytree JAX does not consider equal to the last, so each call compiles again."""
import jax.numpy as jnp
from jax import custom_vjp, jit, vjp


def f(x):
    return x ** 2


@custom_vjp
def g(x):
    return f(x)


def g_fwd(x):
    y, f_vjp = vjp(f, x)
    return y, f_vjp


def g_bwd(f_vjp, y_bar):
    return f_vjp(y_bar)


g.defvjp(g_fwd, g_bwd)

@jit
def w(this_g_vjp):
    return this_g_vjp(1.0)


if __name__ == "__main__":
    for i in range(3):
        _, g_vjp = vjp(g, jnp.float32(i))
        print(w(g_vjp))  # <-- bug
