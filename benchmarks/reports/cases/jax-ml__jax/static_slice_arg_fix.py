# source: https://github.com/jax-ml/jax/issues/3708
# category: B
# expect: ok
# via: partial-jit, static-argnums
# sink: static-unhashable
"""A Python slice is passed as a static argument to pick part of an array; slices were once hashed by
identity (a retrace per call) and, being unhashable, are now refused as static arguments."""
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(1, 2))
def foo(arr, start, stop):
    return arr[start:stop]


if __name__ == "__main__":
    a = jnp.array([4, 5, 6, 7])
    print(foo(a, 1, 3))
    print(foo(a, 1, 3))
