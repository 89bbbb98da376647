# source: https://github.com/jax-ml/jax/pull/3632
# category: C
# expect: stale
# via: lax-fori
# sink: closure-global
"""A fori_loop body pulls its increments from a Python iterator with next(); the body is traced once,
so next() runs once at trace time and the loop adds the same constant instead of 0..5."""
import jax.numpy as jnp
from jax import lax

if __name__ == "__main__":
    array = jnp.arange(6)
    print(lax.fori_loop(0, 6, lambda i, x: x + array[i], 0))
    iterator = iter(range(6))
    print(lax.fori_loop(0, 6, lambda i, x: x + next(iterator), 0))  # <-- bug
