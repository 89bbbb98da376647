# source: https://openillumi.com/en/en-jax-jit-iterator-vs-lax-foriloop
# category: C
# expect: ok
# via: jit-decorator, lax-fori
# sink: closure-global
"""A user sums array elements in a jitted lax.fori_loop, indexing with the loop counter that the
loop passes to its body instead of a Python iterator."""
import jax.numpy as jnp
import jax.lax as lax
from jax import jit


@jit
def sum_with_iterator(array):
    return lax.fori_loop(0, 10, lambda i, x: x + array[i], 0)


if __name__ == "__main__":
    array = jnp.arange(10)
    print(sum_with_iterator(array))
