# source: https://openillumi.com/en/en-jax-jit-list-static-arg-best-practice
# category: B
# expect: raises
# via: partial-jit, static-argnums
# sink: static-unhashable
"""A Python list is passed to a jitted function under `static_argnames`; the list cannot be hashed
into the compilation cache key, so JAX refuses the call with a non-hashable static argument error."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["offsets"])
def dummy(x, offsets):
    out = x
    for k, off in enumerate(offsets):
        out = out + off * x**k
    return out


if __name__ == "__main__":
    x = jnp.arange(4.0)
    offsets = [1.0, 2.0, 3.0]
    print(dummy(x, offsets=offsets))  # <-- bug
    offsets.append(4.0)
    print(dummy(x, offsets=offsets))
