# source: https://github.com/google-research/big_vision/blob/95ccb1594a0eeb8b428a2682830837757b61569a/big_vision/utils_test.py#L54
# category: R
# expect: ok
# via: jit-decorator, wrapper, host-loop
# sink: changing-shape
"""A jitted function wrapped by `pad_shard_unpad` is called on batches of several sizes with
`min_device_batch=9`, so the wrapper pads every batch to the same per-device size and the
jitted function is traced once, as the test asserts."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def pad_shard_unpad(wrapped, static_argnums=(0,), static_argnames=()):
  def pad_shard_unpad_wrapper(*args, min_device_batch=None, **kw):
    d = jax.local_device_count()
    bs = {a.shape[0] for i, a in enumerate(args) if i not in static_argnums}
    assert len(bs) == 1, f"Inconsistent batch-sizes: {bs}"
    b = bs.pop()

    def pad(x):
      _, *shape = x.shape
      db, rest = divmod(b, d)
      if rest:
        x = np.concatenate([x, np.zeros((d - rest, *shape), x.dtype)], axis=0)
        db += 1
      if min_device_batch and db < min_device_batch:
        x = np.concatenate([x, np.zeros((d * (min_device_batch - db), *shape), x.dtype)])
        db = min_device_batch
      return x.reshape(d * db, *shape)

    args = [pad(np.asarray(a)) if i not in static_argnums else a for i, a in enumerate(args)]
    out = wrapped(*args, **kw)
    return np.asarray(jax.device_get(out))[:b]

  return pad_shard_unpad_wrapper


@partial(pad_shard_unpad, static_argnums=())
@jax.jit
def add(a, b):
  return a + b


if __name__ == "__main__":
  ndev = jax.local_device_count()
  for bs in [ndev, ndev + 1, 5 * ndev, 5 * ndev + 1]:
    x = jnp.arange(bs, dtype=np.float32)
    y = add(x, 10 * x, min_device_batch=9)
    print(bs, y.sum())
