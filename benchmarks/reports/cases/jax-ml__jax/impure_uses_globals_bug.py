# source: https://github.com/jax-ml/jax/pull/2435
# category: C
# expect: stale
# via: jit-call
# sink: closure-global
"""A function adds a module-level g to its input; jit bakes in g's value from the first trace, so after
g is updated the cached computation keeps using the old value until a new input type forces a retrace."""
import jax.numpy as jnp
from jax import jit

g = 0.0


def impure_uses_globals(x):
    return x + g  # <-- bug


if __name__ == "__main__":
    print("call 1:", jit(impure_uses_globals)(3.0))
    g = 2.5
    print("call 2 after g changed:", jit(impure_uses_globals)(6.0))
    print("call 3 with an array:", jit(impure_uses_globals)(jnp.array([3.0, 1.0])))
