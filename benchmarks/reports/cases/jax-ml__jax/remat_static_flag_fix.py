# source: https://github.com/jax-ml/jax/issues/2833
# category: A
# expect: ok
# via: checkpoint, static-argnums, jit-call
# sink: python-if
"""The flag is declared static to remat as well as to jit, so the branch sees a Python bool."""
import jax
import jax.numpy as jnp


def f(a_bool, y):
    if a_bool:
        return jnp.sin(y) + 1
    else:
        return jnp.sin(y)


if __name__ == "__main__":
    g = jax.jit(jax.remat(f, static_argnums=(0,)), static_argnums=0)
    print(g(True, 1.0))
    print(jax.grad(lambda y: g(False, y))(1.0))
