# source: https://github.com/google-deepmind/chex/blob/b4942e3e3cee9f4c87f3404d6b165ec375f59f70/chex/_src/fake_test.py#L229
# category: B
# expect: raises
# via: pmap, partial-jit, jit-decorator
# sink: static-spec
"""Chex's test of `static_broadcasted_argnums` stacks `jax.pmap` over `jax.jit` on a function whose
second argument is a Python int multiplier.  With no argument listed as static, pmap maps the int
along the device axis like an array, and a rank-0 value cannot be split, so the call fails; the
test expects this ValueError."""
import functools

import jax
import jax.numpy as jnp

STATIC_ARGNUMS = ()


@functools.partial(jax.pmap, axis_size=len(jax.devices()), static_broadcasted_argnums=STATIC_ARGNUMS)
@functools.partial(jax.jit, static_argnums=STATIC_ARGNUMS)
def foo(x, multiplier, y, mode='bar'):
    if mode == 'bar':
        return (x * multiplier) + y
    else:
        return x


if __name__ == "__main__":
    num_devices = len(jax.devices())
    inputs = jnp.array([1, 2])
    inputs = jnp.broadcast_to(inputs, (num_devices,) + inputs.shape)
    result = foo(inputs, 100, inputs)  # <-- bug
    print(result)
