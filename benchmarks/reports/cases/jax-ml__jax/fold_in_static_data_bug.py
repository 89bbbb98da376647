# source: https://github.com/jax-ml/jax/issues/1033
# category: R
# expect: recompiles
# via: partial-jit, static-argnums, helper, host-loop
# sink: changing-static
"""`fold_in(key, data)` was jitted with `static_argnums=(1,)`, so the innocent loop
`fold_in(base_key, i)` over a step counter compiles `fold_in` again for every `i`.  Tracing
`data` as a 32-bit integer array instead compiles it once."""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


def _threefry_mix(key, data):
    x = lax.convert_element_type(data, jnp.uint32)
    mixed = key ^ (x * jnp.uint32(0x9E3779B9))
    return (mixed << jnp.uint32(13)) | (mixed >> jnp.uint32(19))


@partial(jax.jit, static_argnums=(1,))
def fold_in(key, data):
    return _threefry_mix(key, jnp.uint32(data))


def do_something_random(key):
    return jnp.sum(key.astype(jnp.float32)) % 7.0


if __name__ == "__main__":
    base_key = jnp.array([0, 42], dtype=jnp.uint32)
    for i in range(5):
        print(i, float(do_something_random(fold_in(base_key, i))))  # <-- bug
