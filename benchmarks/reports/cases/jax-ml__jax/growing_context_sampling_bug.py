# source: https://github.com/jax-ml/jax/issues/837
# category: R
# expect: recompiles
# via: jit-decorator, host-loop
# sink: changing-shape
"""Sampling from a sequence model, the context passed to the jitted step grows by one token per
step, so every step is a new input shape and the step is compiled again each time."""
import jax
import jax.numpy as jnp

VOCAB, DIM = 11, 8
params = {
    "embed": jax.random.normal(jax.random.PRNGKey(0), (VOCAB, DIM)),
    "out": jax.random.normal(jax.random.PRNGKey(1), (DIM, VOCAB)),
}


@jax.jit
def next_token_logits(params, context):
    h = params["embed"][context].mean(axis=0)
    return h @ params["out"]


if __name__ == "__main__":
    context = jnp.array([1], dtype=jnp.int32)
    for _ in range(5):
        logits = next_token_logits(params, context)  # <-- bug
        token = jnp.argmax(logits).astype(jnp.int32)
        context = jnp.concatenate([context, token[None]])
    print(context)
