# source: https://github.com/google/CommonLoopUtils/commit/9147399887a0d2d78b90e2ff9da1348c157162a9
# category: A
# expect: ok
# via: dataclass, method, jit-decorator
# sink: shape-from-value
"""CLU's Average metric broadcast a per-example mask to the values' rank with
`jnp.expand_dims(mask, axis=tuple(jnp.arange(mask.ndim, values.ndim)))`; inside a jitted eval
step the jnp.arange is traced, so the axis tuple holds tracers and the metric cannot be built.
The commit computes the axes with np.arange."""
from typing import Optional

import flax
import jax
import jax.numpy as jnp
import numpy as np


@flax.struct.dataclass
class Average:
    total: jnp.ndarray
    count: jnp.ndarray

    @classmethod
    def from_model_output(cls, values: jnp.ndarray, mask: Optional[jnp.ndarray] = None, **_):
        if values.ndim == 0:
            values = values[None]
        if mask is None:
            mask = jnp.ones_like(values)
        if mask.shape[0] != values.shape[0]:
            raise ValueError("Argument `mask` must have the same leading dimension as `values`.")
        if mask.ndim < values.ndim:
            mask = jnp.expand_dims(mask, axis=tuple(np.arange(mask.ndim, values.ndim)))
        mask = mask.astype(bool)
        return cls(
            total=jnp.where(mask, values, jnp.zeros_like(values)).sum(),
            count=jnp.where(mask, jnp.ones_like(values, dtype=jnp.int32), jnp.zeros_like(values, dtype=jnp.int32)).sum(),
        )

    def compute(self):
        return self.total / self.count


@jax.jit
def eval_step(per_token_loss, example_mask):
    return Average.from_model_output(per_token_loss, mask=example_mask)


if __name__ == "__main__":
    loss = jnp.arange(12, dtype=jnp.float32).reshape(3, 4)
    mask = jnp.array([1, 0, 1])
    print(eval_step(loss, mask).compute())
