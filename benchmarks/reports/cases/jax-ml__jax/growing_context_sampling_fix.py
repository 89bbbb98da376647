# source: https://github.com/jax-ml/jax/issues/837
# category: R
# expect: ok
# via: jit-decorator, host-loop
# sink: changing-shape
"""Sampling from a sequence model, the context passed to the jitted step grows by one token per
step, so every step is a new input shape and the step is compiled again each time."""
import jax
import jax.numpy as jnp

VOCAB, DIM = 11, 8
MAX_LEN = 8
params = {
    "embed": jax.random.normal(jax.random.PRNGKey(0), (VOCAB, DIM)),
    "out": jax.random.normal(jax.random.PRNGKey(1), (DIM, VOCAB)),
}


@jax.jit
def next_token_logits(params, context, length):
    mask = (jnp.arange(MAX_LEN) < length)[:, None]
    h = jnp.where(mask, params["embed"][context], 0.0).sum(axis=0) / length
    return h @ params["out"]


if __name__ == "__main__":
    context = jnp.zeros(MAX_LEN, dtype=jnp.int32).at[0].set(1)
    length = 1
    for _ in range(5):
        logits = next_token_logits(params, context, jnp.int32(length))
        token = jnp.argmax(logits).astype(jnp.int32)
        context = context.at[length].set(token)
        length += 1
    print(context[:length])
