# source: https://github.com/Silent-Zebra/twisted-smc-lm/commit/1f3bc9428fdc26ffae400f16c191089d51deb19c
# category: B
# expect: ok
# via: pytree-class, lax-scan, static-argnums, partial-jit, vmap
# sink: static-unhashable
"""The config is kept out of the scan carry and bound to the loop body with `functools.partial`,
so it stays the concrete, hashable static argument of `batch_transformer` on every step."""
import types
from functools import partial

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class ParamsDict(types.SimpleNamespace):
    def tree_flatten(self):
        return jax.tree_util.tree_flatten(self.__dict__, lambda a: a is not self.__dict__)

    @classmethod
    def tree_unflatten(cls, aux, values):
        return ParamsDict(**jax.tree_util.tree_unflatten(aux, values))

    def __hash__(self):
        return hash(tuple(hash(x) for (_, x) in self.__dict__.items()))


def transformer_init(rng, n_vocab, d_model):
    config = ParamsDict(lambda_e=d_model**-0.5, tau=1.0)
    rng, k1, k2 = jax.random.split(rng, 3)
    params = ParamsDict(
        embeddings=jax.random.normal(k1, (n_vocab, d_model)),
        output=ParamsDict(weight=jax.random.normal(k2, (d_model, n_vocab)), bias=jnp.zeros((n_vocab,))),
    )
    return rng, config, params


def transformer(cfg, params, seq):
    x = params.embeddings[seq] * cfg.lambda_e
    return (x @ params.output.weight + params.output.bias) / cfg.tau


@partial(jax.jit, static_argnums=0)
def batch_transformer(cfg_p, params_p, seq):
    batch_transformer_func = jax.vmap(transformer, in_axes=(None, None, 0))
    return batch_transformer_func(cfg_p, params_p, seq)


def stochastic_transformer_sample_iter(carry, t, cfg):
    rnd_key, params, full_seq, prompt_len = carry
    output_unnormalized_batch = batch_transformer(cfg, params, full_seq)
    rnd_key, subkey = jax.random.split(rnd_key)
    idx = jax.random.categorical(subkey, output_unnormalized_batch[:, prompt_len + t - 1, :])
    full_seq = full_seq.at[:, prompt_len + t].set(idx)
    carry = (rnd_key, params, full_seq, prompt_len)
    return carry, None


@partial(jax.jit, static_argnums=[1, 4, 5])
def stochastic_transformer_sample(rnd_key, cfg, params, prompt, output_len, n_samples):
    prompt_len = prompt.shape[-1]
    batch_prompt = jnp.full((n_samples, prompt.shape[0]), prompt)
    output = jnp.zeros((n_samples, output_len), dtype=jnp.int32)
    full_seq = jnp.concatenate((batch_prompt, output), axis=1)
    carry = (rnd_key, params, full_seq, prompt_len)
    carry, _ = jax.lax.scan(partial(stochastic_transformer_sample_iter, cfg=cfg), carry, jnp.arange(output_len, dtype=jnp.int32), output_len)
    rnd_key, params, full_seq, _ = carry
    return full_seq


if __name__ == "__main__":
    rng = jax.random.PRNGKey(0)
    rng, cfg_p, params_p = transformer_init(rng, n_vocab=4, d_model=8)
    prompt = jnp.array([0, 1, 0, 1])
    samples = stochastic_transformer_sample(rng, cfg_p, params_p, prompt, 3, 5)
    print(samples)
