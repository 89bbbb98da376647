# source: https://openillumi.com/en/en-jax-jit-iterator-vs-lax-foriloop
# category: C
# expect: stale
# via: jit-decorator, lax-fori
# sink: closure-global
"""A user reads array elements through a Python iterator, calling next(it) inside the body of a
jitted lax.fori_loop; the body is traced once, next() runs once, and every iteration adds the same
element, so the sum comes out as 0 instead of 45."""
import jax.numpy as jnp
import jax.lax as lax
from jax import jit


@jit
def sum_with_iterator(array):
    it = iter(range(10))
    return lax.fori_loop(0, 10, lambda i, x: x + array[next(it)], 0)  # <-- bug


if __name__ == "__main__":
    array = jnp.arange(10)
    print(sum_with_iterator(array))
