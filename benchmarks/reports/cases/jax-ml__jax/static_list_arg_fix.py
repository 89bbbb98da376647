# source: https://github.com/jax-ml/jax/issues/2813
# category: B
# expect: ok
# via: jit-call, static-argnums
# sink: static-unhashable
"""A list passed in a static_argnums position: JAX used to hash it by identity and retrace on
every call; it now refuses the unhashable static argument outright."""
import jax


def g(x, y):
    return x + y[0]


f = jax.jit(g, static_argnums=(1,))

if __name__ == "__main__":
    print(f(10, (2, 3)))
    print(f(10, (2, 3)))
