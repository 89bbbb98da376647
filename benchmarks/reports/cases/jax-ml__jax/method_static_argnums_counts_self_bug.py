# source: https://github.com/jax-ml/jax/issues/17158
# category: B
# expect: raises
# via: jit-decorator, partial-jit, static-argnums, method
# sink: static-spec
"""A function jitted with `static_argnums=(1,)` for its flag `neg` worked, but moved into a class
as a method the same decorator marks `x` static, because `self` is now argument 0; the array
`x` is then hashed as a static argument and the call fails."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def f(x, neg):
    return -x if neg else x


class Test:
    @partial(jax.jit, static_argnums=(1,))
    def f(self, x, neg):
        return -x if neg else x


if __name__ == "__main__":
    arr = jnp.array([1, 2])
    print(f(arr, True))
    t = Test()
    result = t.f(arr, True)  # <-- bug
    print(result)
