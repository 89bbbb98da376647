# source: https://github.com/google/vizier/blob/e9e1671ada5970cb20e9417eb0a4efd47e1f590c/vizier/_src/jax/types_test.py#L61
# category: A
# expect: raises
# via: method, equinox, pytree-class
# sink: shape-from-value
"""A PaddedArray keeps its original shape as an array field; calling `unpad()` under
eqx.filter_jit turns that field into a tracer, and `.tolist()` cannot give the slice limits."""
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


class PaddedArray(eqx.Module):
    padded_array: jax.Array = eqx.field(converter=jnp.asarray)
    fill_value: Any = eqx.field(converter=jnp.asarray)
    _original_shape: jax.Array = eqx.field(converter=jnp.asarray)
    _mask: jax.Array = eqx.field(converter=jnp.asarray)
    _nopadding_done: bool = eqx.field(static=True, default=False, kw_only=True)

    @classmethod
    def from_array(cls, array, target_shape, *, fill_value):
        spec = [(0, dnew - d) for d, dnew in zip(array.shape, target_shape)]
        mask_array = jnp.pad(jnp.ones_like(array, dtype=bool), spec, constant_values=False)
        new_array = jnp.pad(array, spec, constant_values=fill_value)
        return PaddedArray(
            padded_array=new_array,
            fill_value=fill_value,
            _original_shape=array.shape,
            _mask=mask_array,
            _nopadding_done=array.shape == tuple(target_shape),
        )

    def unpad(self):
        if self._nopadding_done:
            return self.padded_array
        return jax.lax.slice(
            self.padded_array,
            [0] * self.padded_array.ndim,
            self._original_shape.tolist(),  # <-- bug
        )


if __name__ == "__main__":
    arr = jnp.ones([3, 2], dtype=jnp.int32)
    parr = PaddedArray.from_array(arr, (5, 3), fill_value=0)
    out = eqx.filter_jit(lambda p: p.unpad())(parr)
    np.testing.assert_array_equal(out, arr)
    print(out)
