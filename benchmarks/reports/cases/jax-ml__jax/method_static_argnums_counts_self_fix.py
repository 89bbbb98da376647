# source: https://github.com/jax-ml/jax/issues/17158
# category: B
# expect: ok
# via: jit-decorator, partial-jit, static-argnums, method
# sink: static-spec
"""A function jitted with `static_argnums=(1,)` for its flag `neg` works; moved into a class as a
method, the flag is argument 2 because `self` is argument 0, so the method's decorator counts
`self` in: `self` and `neg` are static and the array `x` is traced."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def f(x, neg):
    return -x if neg else x


class Test:
    @partial(jax.jit, static_argnums=(0, 2))
    def f(self, x, neg):
        return -x if neg else x


if __name__ == "__main__":
    arr = jnp.array([1, 2])
    print(f(arr, True))
    t = Test()
    result = t.f(arr, True)
    print(result)
