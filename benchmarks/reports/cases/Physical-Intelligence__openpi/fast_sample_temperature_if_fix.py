# source: https://github.com/Physical-Intelligence/openpi/pull/550
# category: A
# expect: ok
# via: flax-nnx, method, wrapper, jit-call, lax-while, lax-cond
# sink: python-if
"""Pi0FAST's `sample_actions` chooses between sampling and argmax with `jax.lax.cond(temperature >
0.0, ...)` in the decoding while-loop, carrying the rng, so the `temperature` keyword that the
policy passes to the jitted method may be traced."""
import functools

import flax.nnx as nnx
import jax
import jax.numpy as jnp

EOS_TOKEN = 1


def module_jit(meth, *jit_args, **jit_kwargs):
    graphdef, state = nnx.split(meth.__self__)

    def fun(state, *args, **kwargs):
        module = nnx.merge(graphdef, state)
        return meth.__func__(module, *args, **kwargs)

    jitted_fn = jax.jit(fun, *jit_args, **jit_kwargs)

    @functools.wraps(meth)
    def wrapper(*args, **kwargs):
        return jitted_fn(state, *args, **kwargs)

    return wrapper


class Pi0FAST(nnx.Module):
    def __init__(self, vocab=32, dim=16, *, rngs):
        self.embed = nnx.Embed(vocab, dim, rngs=rngs)
        self.head = nnx.Linear(dim, vocab, rngs=rngs)

    def sample_actions(self, rng, prefix_tokens, *, max_decoding_steps=6, temperature=0.0):
        last_logit = self.head(self.embed(prefix_tokens[:, -1]))
        output_tokens = jnp.zeros((last_logit.shape[0], max_decoding_steps), jnp.int32)

        def step(carry):
            rng, last_logit, output_tokens, _, step = carry
            rng, rng_step = jax.random.split(rng)
            token = jax.lax.cond(
                temperature > 0.0,
                lambda _: jax.random.categorical(rng_step, last_logit / temperature, axis=-1),
                lambda _: jnp.argmax(last_logit, axis=-1),
                operand=None,
            )
            output_tokens = output_tokens.at[:, step].set(token)
            all_eos = jnp.all(token == EOS_TOKEN)
            last_logit = self.head(self.embed(token))
            return rng, last_logit, output_tokens, all_eos, step + 1

        def cond(carry):
            _, _, _, all_eos, step = carry
            return (~all_eos) & (step < max_decoding_steps)

        _, _, output_tokens, _, _ = jax.lax.while_loop(cond, step, (rng, last_logit, output_tokens, False, 0))
        return output_tokens


class Policy:
    def __init__(self, model, sample_kwargs=None):
        self._sample_actions = module_jit(model.sample_actions)
        self._sample_kwargs = sample_kwargs or {}
        self._rng = jax.random.key(0)

    def infer(self, obs):
        self._rng, sample_rng = jax.random.split(self._rng)
        return {"actions": self._sample_actions(sample_rng, obs, **self._sample_kwargs)}


if __name__ == "__main__":
    model = Pi0FAST(rngs=nnx.Rngs(0))
    policy = Policy(model, sample_kwargs={"temperature": 0.7})
    print(policy.infer(jnp.array([[3, 4, 5], [6, 7, 8]]))["actions"])
