# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/linen/linen_module_test.py#L800
# category: B
# expect: ok
# via: flax-linen, partial-jit, static-argnums
# sink: static-unhashable
"""Flax's module tests pin down that a Linen module is hashable (by its dataclass fields) only
while it is unbound: `nn.Dense(10, parent=Scope({}))` holds variables, and hashing it raises.
An unbound `nn.Dense(10)` hashes by its fields, so it can be the static argument of a jitted
function."""
from functools import partial

import jax
import jax.numpy as jnp
import flax.linen as nn


@partial(jax.jit, static_argnums=0)
def output_buffer(module, x):
    return jnp.zeros((x.shape[0], module.features), x.dtype)


def test_module_static_output_buffer():
    module_a = nn.Dense(10)
    x = jnp.ones((4, 3))
    out = output_buffer(module_a, x)
    assert out.shape == (4, 10)
    return out


if __name__ == "__main__":
    print(test_module_static_output_buffer().shape)
