# source: https://github.com/google/praxis/commit/527b4787a9f30e4e7ccda1dc1b03d6694453186a
# category: A
# expect: ok
# via: flax-linen, method, jit-call, host-loop
# sink: python-if
"""TransformerLm's decoding `extend_step` keeps the previous token as an `ngrammer_prefix` in the
decode cache and always prepends it and trims it again, so no Python `if` reads the traced
`time_step` inside the jitted decode step."""
import jax
import jax.numpy as jnp
import flax.linen as nn


class NGrammer(nn.Module):
    vocab_size: int
    num_buckets: int = 64

    @nn.compact
    def __call__(self, input_ids, input_emb):
        prev = jnp.pad(input_ids, ((0, 0), (1, 0)))[:, :-1]
        bigram = (prev * self.vocab_size + input_ids) % self.num_buckets
        return input_emb + nn.Embed(self.num_buckets, input_emb.shape[-1])(bigram)


class TransformerLm(nn.Module):
    vocab_size: int = 16
    dim: int = 8

    def setup(self):
        self.embedding = nn.Embed(self.vocab_size, self.dim)
        self.ngrammer = NGrammer(self.vocab_size)
        self.softmax = nn.Dense(self.vocab_size)

    def _emb_ngrammer(self, input_ids, input_emb):
        # the cached previous token is prepended to compute the bi-gram
        ngrammer_prefix = self.get_variable("decoder", "ngrammer_prefix")
        ngrammer_prefix_emb = self.get_variable("decoder", "ngrammer_prefix_emb")
        input_ids = jnp.concatenate([ngrammer_prefix, input_ids], axis=1)
        input_emb = jnp.concatenate([ngrammer_prefix_emb, input_emb], axis=1)
        input_emb = self.ngrammer(input_ids, input_emb)
        input_emb = input_emb[:, 1:, :]
        return input_ids[:, 1:], input_emb

    def __call__(self, input_ids):
        input_emb = self.embedding(input_ids)
        return self.softmax(self.ngrammer(input_ids, input_emb))

    def extend_step(self, input_ids):
        input_emb = self.embedding(input_ids)
        new_ids, new_emb = self._emb_ngrammer(input_ids, input_emb)
        self.put_variable("decoder", "ngrammer_prefix", input_ids[:, -1:])
        self.put_variable("decoder", "ngrammer_prefix_emb", input_emb[:, -1:])
        self.put_variable("decoder", "time_step", self.get_variable("decoder", "time_step") + 1)
        return self.softmax(new_emb[:, -1])


if __name__ == "__main__":
    model = TransformerLm()
    params = model.init(jax.random.PRNGKey(0), jnp.zeros((2, 4), jnp.int32))["params"]
    cache = {
        "time_step": jnp.array(0, jnp.int32),
        "ngrammer_prefix": jnp.zeros((2, 1), jnp.int32),
        "ngrammer_prefix_emb": jnp.zeros((2, 1, 8), jnp.float32),
    }

    @jax.jit
    def decode_step(params, cache, ids):
        return model.apply({"params": params, "decoder": cache}, ids,
                           method=TransformerLm.extend_step, mutable=["decoder"])

    ids = jnp.array([[1], [2]], jnp.int32)
    for step in range(3):
        logits, state = decode_step(params, cache, ids)
        cache = state["decoder"]
        ids = jnp.argmax(logits, axis=-1)[:, None].astype(jnp.int32)
        print(step, ids[:, 0])
