# source: https://github.com/google-deepmind/dm-haiku/commit/220c6b02a22f1ee9bea7dc8e017f3090108f75e4
# category: A
# expect: raises
# via: haiku, method, lax-scan
# sink: numpy-call
"""Haiku's Embed looked ids up with self.embeddings[(ids,)]; when apply gets plain NumPy params
and the ids are tracers (inside hk.dynamic_unroll's scan), that is NumPy indexing with a tracer,
which fails.  The commit casts the table with jnp.asarray before slicing."""
import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np


class Embed(hk.Module):
    def __init__(self, vocab_size, embed_dim, name=None):
        super().__init__(name=name)
        self.vocab_size = vocab_size
        self.embed_dim = embed_dim

    def __call__(self, ids):
        self.embeddings = hk.get_parameter(
            "embeddings", [self.vocab_size, self.embed_dim], init=hk.initializers.TruncatedNormal())
        return self.embeddings[(ids,)]  # <-- bug


def unroll(token_seq):
    embed = Embed(10, 3)
    core = lambda ids, state: (embed(ids) + state, state)
    outs, _ = hk.dynamic_unroll(core, token_seq, jnp.zeros((2, 3)))
    return outs


if __name__ == "__main__":
    f = hk.without_apply_rng(hk.transform(unroll))
    token_seq = jnp.array([[1, 2], [3, 4], [5, 6]])
    params = f.init(jax.random.PRNGKey(0), token_seq)
    np_params = jax.tree_util.tree_map(np.asarray, params)
    print(f.apply(np_params, token_seq).shape)
