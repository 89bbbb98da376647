# source: https://openillumi.com/en/en-jax-jit-list-static-arg-best-practice
# category: B
# expect: ok
# via: partial-jit, static-argnums
# sink: static-unhashable
"""The list is turned into a tuple before the call, so the static argument hashes by value and a
changed set of offsets compiles a new version instead of reusing a stale one."""
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
    print(dummy(x, offsets=tuple(offsets)))
    offsets.append(4.0)
    print(dummy(x, offsets=tuple(offsets)))
