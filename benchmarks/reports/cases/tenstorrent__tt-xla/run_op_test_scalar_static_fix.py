# source: https://github.com/tenstorrent/tt-xla/issues/134
# category: B
# expect: ok
# via: jit-call, static-argnums, helper, wrapper
# sink: static-array
"""tt-xla's op-test harness with the static inputs kept apart: only the positions that are not
static are put on the device, so the axis reaches the jitted op as a plain Python int."""
from typing import Callable, Sequence

import jax
import jax.numpy as jnp


def _put_on_device(inputs: Sequence, static_argnums=()):
    device = jax.devices("cpu")[0]
    out = []
    for i, x in enumerate(inputs):
        if i in static_argnums:
            out.append(x)
            continue
        try:
            out.append(jax.device_put(x, device))
        except TypeError:
            out.append(x)
    return out


def run_op_test(op: Callable, inputs: Sequence, static_argnums=()):
    golden = op(*inputs)
    compiled = jax.jit(op, static_argnums=static_argnums)
    device_inputs = _put_on_device(inputs, static_argnums)
    result = compiled(*device_inputs)
    assert jnp.allclose(result, golden), (result, golden)
    return result


def test_cumsum(x_shape=(4, 8), axis=1):
    def cumsum(x, axis):
        return jnp.cumsum(x, axis=axis)

    x = jnp.arange(x_shape[0] * x_shape[1], dtype=jnp.float32).reshape(x_shape)
    return run_op_test(cumsum, [x, axis], static_argnums=(1,))


if __name__ == "__main__":
    print(test_cumsum())
