# source: https://github.com/jax-ml/jax/issues/2833
# category: A
# expect: raises
# via: checkpoint, static-argnums, jit-call
# sink: python-if
"""A function that branches on a Python flag is wrapped in jax.remat and then jitted with the flag
static; jit passes the flag through as a Python bool, but remat traces every argument, so the
`if a_bool:` inside sees a tracer and fails."""
import jax
import jax.numpy as jnp


def f(a_bool, y):
    if a_bool:  # <-- bug
        return jnp.sin(y) + 1
    else:
        return jnp.sin(y)


if __name__ == "__main__":
    g = jax.jit(jax.remat(f), static_argnums=0)
    print(g(True, 1.0))
    print(jax.grad(lambda y: g(False, y))(1.0))
