# source: https://github.com/jax-ml/jax/pull/2435
# category: C
# expect: ok
# via: jit-call
# sink: closure-global
"""A function adds a module-level g to its input; jit bakes in g's value from the first trace, so after
g is updated the cached computation keeps using the old value until a new input type forces a retrace."""
import jax.numpy as jnp
from jax import jit

g = 0.0


def pure_uses_g(x, g):
    return x + g


if __name__ == "__main__":
    print("call 1:", jit(pure_uses_g)(3.0, g))
    g = 2.5
    print("call 2 after g changed:", jit(pure_uses_g)(6.0, g))
    print("call 3 with an array:", jit(pure_uses_g)(jnp.array([3.0, 1.0]), g))
