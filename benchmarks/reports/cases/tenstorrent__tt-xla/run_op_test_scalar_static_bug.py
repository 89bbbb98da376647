# source: https://github.com/tenstorrent/tt-xla/issues/134
# category: B
# expect: raises
# via: jit-call, static-argnums, helper, wrapper
# sink: static-array
"""tt-xla's op-test harness puts every test input on the device before calling the jitted op,
and `jax.device_put` happily turns a Python int into a 0-d `jax.Array`; once the op needs that
int as a static argument (an axis), jit is handed an array it cannot hash."""
from typing import Callable, Sequence

import jax
import jax.numpy as jnp


def _put_on_device(inputs: Sequence):
    device = jax.devices("cpu")[0]
    out = []
    for x in inputs:
        try:
            out.append(jax.device_put(x, device))
        except TypeError:
            out.append(x)
    return out


def run_op_test(op: Callable, inputs: Sequence, static_argnums=()):
    golden = op(*inputs)
    compiled = jax.jit(op, static_argnums=static_argnums)
    device_inputs = _put_on_device(inputs)
    result = compiled(*device_inputs)  # <-- bug
    assert jnp.allclose(result, golden), (result, golden)
    return result


def test_cumsum(x_shape=(4, 8), axis=1):
    def cumsum(x, axis):
        return jnp.cumsum(x, axis=axis)

    x = jnp.arange(x_shape[0] * x_shape[1], dtype=jnp.float32).reshape(x_shape)
    return run_op_test(cumsum, [x, axis], static_argnums=(1,))


if __name__ == "__main__":
    print(test_cumsum())
