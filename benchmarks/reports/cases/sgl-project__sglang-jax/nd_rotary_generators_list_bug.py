# source: https://github.com/sgl-project/sglang-jax/issues/1597
# category: B
# expect: raises
# via: flax-nnx, method, class-attribute
# sink: static-metadata
"""The multimodal `NDRotaryEmbedding` keeps one rotary embedding per axis in
`self.rope_generators = []`, a plain list attribute.  With Flax 0.12 a plain list on an nnx
Module is static, and a list holding modules with cos/sin caches is refused while the model is
being built, before any device work."""
import jax.numpy as jnp
from flax import nnx


class RotaryEmbedding(nnx.Module):
    def __init__(self, head_dim, max_pos, base=10000.0):
        inv_freq = 1.0 / (base ** (jnp.arange(0, head_dim, 2) / head_dim))
        freqs = jnp.outer(jnp.arange(max_pos), inv_freq)
        self.cos_cache = nnx.Cache(jnp.cos(freqs))
        self.sin_cache = nnx.Cache(jnp.sin(freqs))

    def __call__(self, positions, x):
        cos, sin = self.cos_cache.value[positions], self.sin_cache.value[positions]
        x1, x2 = jnp.split(x, 2, axis=-1)
        return jnp.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


class NDRotaryEmbedding(nnx.Module):
    def __init__(self, axes_dims, axes_lens):
        self.rope_generators = []  # <-- bug
        for dim, length in zip(axes_dims, axes_lens):
            self.rope_generators.append(RotaryEmbedding(dim, length))

    def __call__(self, ids, x):
        outs, start = [], 0
        for i, rope in enumerate(self.rope_generators):
            dim = rope.cos_cache.value.shape[-1] * 2
            outs.append(rope(ids[:, i], x[..., start:start + dim]))
            start += dim
        return jnp.concatenate(outs, axis=-1)


if __name__ == "__main__":
    rope = NDRotaryEmbedding(axes_dims=(4, 8), axes_lens=(16, 32))  # <-- bug
    ids = jnp.stack([jnp.arange(5) % 16, jnp.arange(5)], axis=-1)
    x = jnp.ones((5, 12))
    y = nnx.jit(lambda m, i, v: m(i, v))(rope, ids, x)
    print(y.shape, float(y.sum()))
