# source: https://github.com/jax-ml/jax/issues/204
# category: A
# expect: ok
# via: jit-call, static-argnums
# sink: shape-from-value
"""The row is padded into a `(pad_to_length, width)` array with `lax.full`; `pad_to_length` is
marked static in jit, so the shape is a Python int while tracing."""
import numpy as onp
import jax.numpy as np
from jax import jit, lax


def dynamic_update_slice_test(first_row, pad_to_length):
    width = first_row.shape[0]
    empty_array = lax.full((pad_to_length, width), 0, first_row.dtype)
    first_row_reshaped = np.reshape(first_row, (1, width))
    return lax.dynamic_update_slice(empty_array, first_row_reshaped, (0, 0))


if __name__ == "__main__":
    print(dynamic_update_slice_test(onp.array([1, 2]), 4))
    dynamic_update_slice_test_jit = jit(dynamic_update_slice_test, static_argnums=(1,))
    print(dynamic_update_slice_test_jit(onp.array([1, 2]), 4))
