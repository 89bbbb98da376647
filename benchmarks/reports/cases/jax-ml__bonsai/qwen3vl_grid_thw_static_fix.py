# source: https://github.com/jax-ml/bonsai/pull/170
# category: B
# expect: ok
# via: flax-nnx, partial-jit, static-argnums, method
# sink: static-array
"""Adding jit to the Qwen3-VL runner: `image_grid_thw` (temporal/height/width patch counts per
image) drives Python loops and reshapes, so it is a static argument of the jitted forward; the
runner still built it with `jnp.array(...)`, and jit cannot hash an array as a static argument.
The fix passes it as a tuple of tuples of ints."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx


class Qwen3VL(nnx.Module):
    def __init__(self, patch_dim, hidden, vocab, *, rngs):
        self.patch_embed = nnx.Linear(patch_dim, hidden, rngs=rngs)
        self.embed = nnx.Embed(vocab, hidden, rngs=rngs)
        self.lm_head = nnx.Linear(hidden, vocab, rngs=rngs)

    def __call__(self, input_ids, cache, pixel_values, image_grid_thw, token_type_ids):
        feats, start = [], 0
        for t, h, w in image_grid_thw:
            n = t * h * w
            feats.append(self.patch_embed(pixel_values[start:start + n]).mean(0))
            start += n
        x = self.embed(input_ids) + jnp.where(token_type_ids[..., None] == 1, jnp.stack(feats)[0], 0.0)
        return self.lm_head(x)


@functools.partial(jax.jit, static_argnums=(4,))
def _forward_vision_jit(model, cache, input_ids, pixel_values, image_grid_thw, token_type_ids):
    logits = model(input_ids, cache, pixel_values, image_grid_thw, token_type_ids)
    return logits[:, -1, :], cache


if __name__ == "__main__":
    model = Qwen3VL(12, 16, 32, rngs=nnx.Rngs(0))
    cache = {"k": jnp.zeros((1, 4, 16)), "v": jnp.zeros((1, 4, 16))}
    input_ids = jnp.array([[1, 2, 3, 4]])
    token_type_ids = jnp.array([[0, 1, 1, 0]])
    grid = np.array([[1, 2, 2]], dtype=np.int64)
    pixel_values = jnp.ones((4, 12))
    image_grid_thw = tuple(tuple(row) for row in grid.tolist())
    logits, cache = _forward_vision_jit(model, cache, input_ids, pixel_values, image_grid_thw, token_type_ids)
    print(logits.shape, int(jnp.argmax(logits)))
