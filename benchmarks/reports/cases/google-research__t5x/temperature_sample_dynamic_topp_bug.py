# source: https://github.com/google-research/t5x/commit/29437f3b2115203c58ea15c6f0d77f75d434fb7d
# category: A
# expect: raises
# via: jit-call, helper, lax-fori
# sink: bool-ops
"""Temperature sampling validated `topp`/`topk` and `max_decode_steps` with Python tests; when a
caller jits the decode function with `topp` and `max_decode_steps` as dynamic arguments, those
tests need concrete values of tracers."""
import jax
import jax.numpy as jnp

NEG_INF = -1.0e7


def _temperature_sample_single_trial(inputs, tokens_to_logits, prng_key, temperature=1.0,
                                     topk=20, topp=0.0, max_decode_steps=None):
  if topp and topk:  # <-- bug
    raise ValueError('At most one of `topp` or `topk` may be non-zero.')
  batch_size, max_decode_len = inputs.shape
  if max_decode_steps is not None:
    if max_decode_steps > inputs.shape[1]:
      raise ValueError('Cannot decode more steps than the sequence length.')
    max_decode_len = jnp.minimum(inputs.shape[1], jnp.sum(inputs != 0, axis=1) + max_decode_steps)
  temperature = jnp.array(temperature) + 1e-7

  def body(i, state):
    sequences, rng = state
    rng, sub = jax.random.split(rng)
    logits = tokens_to_logits(sequences[:, i])
    if topp:
      logits_sorted = jnp.sort(logits, axis=-1)[:, ::-1]
      cum = jnp.cumsum(jax.nn.softmax(logits_sorted, axis=-1), axis=-1)
      cutoff = jnp.take_along_axis(logits_sorted, jnp.argmax(cum > topp, axis=-1)[:, None], axis=-1)
      logits = jnp.where(logits < cutoff, NEG_INF, logits)
    token = jax.random.categorical(sub, logits / temperature)
    token = jnp.where(i < max_decode_len, token, 0)
    return sequences.at[:, i].set(token), rng

  sequences, _ = jax.lax.fori_loop(0, inputs.shape[1], body, (inputs, prng_key))
  return sequences


def temperature_sample(inputs, tokens_to_logits, decode_rng, temperature=1.0, topk=1, topp=0.0,
                       max_decode_steps=None):
  return _temperature_sample_single_trial(inputs, tokens_to_logits, decode_rng, temperature, topk,
                                          topp, max_decode_steps)


def token_to_logits(tokens):
  return jnp.broadcast_to(jnp.array([-1.2, -1e7, -2.3, -0.51]), (tokens.shape[0], 4))


def dynamic_decode_fn(inputs, temperature, topp, max_decode_steps):
  return temperature_sample(inputs, token_to_logits, jax.random.PRNGKey(0), temperature=temperature,
                            topp=topp, topk=0, max_decode_steps=max_decode_steps)


if __name__ == '__main__':
  dynamic_decode_fn_jit = jax.jit(dynamic_decode_fn)
  print(dynamic_decode_fn_jit(jnp.zeros((1, 20), dtype=jnp.int32), 0.8, 0.63, 10))
