# source: https://github.com/NovaSky-AI/SkyRL/pull/616
# category: R
# expect: ok
# via: method, factory-closure, jit-decorator, dataclass, host-loop
# sink: fresh-callable
"""`generate` jits its prefill as a function defined inside the method (closing over `self`), so
each call to `generate` builds a new function object and `jax.jit` traces and compiles the
prefill again for a prompt batch of the same shape.  The review moves the jitted prefill to
module level and passes the model in as an argument."""
from dataclasses import dataclass

import jax
import jax.numpy as jnp


def compute_positions(attention_mask):
    first_token_idx = jnp.argmax(attention_mask, axis=1, keepdims=True)
    return jnp.arange(attention_mask.shape[1])[None, :] - first_token_idx


@jax.jit
def _prefill(model, input_ids, attention_mask, positions):
    return model(input_ids, attention_mask=attention_mask, positions=positions)


class GeneratorMixin:
    def generate(self, input_ids, attention_mask, *, max_new_tokens):
        # Prefill: process full prompt
        positions = compute_positions(attention_mask)
        logits = _prefill(self, input_ids, attention_mask, positions)
        generated = []
        for _ in range(max_new_tokens):
            next_token = jnp.argmax(logits[:, -1, :], axis=-1)[:, None]
            generated.append(next_token)
            logits = self(next_token, attention_mask=jnp.ones_like(next_token), positions=positions[:, -1:] + 1)
        return jnp.concatenate([input_ids] + generated, axis=1)


@jax.tree_util.register_dataclass
@dataclass
class TinyCausalLM(GeneratorMixin):
    embed: jax.Array
    lm_head: jax.Array

    def __call__(self, input_ids, *, attention_mask, positions):
        h = self.embed[input_ids] * attention_mask[..., None] + 0.01 * positions[..., None]
        return jnp.cumsum(h, axis=1) @ self.lm_head


if __name__ == "__main__":
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    model = TinyCausalLM(jax.random.normal(k1, (16, 8)), jax.random.normal(k2, (8, 16)))
    requests = [jnp.array([[1, 2, 3, 4], [0, 5, 6, 7]]), jnp.array([[3, 3, 1, 2], [0, 0, 9, 4]])]
    for input_ids in requests:
        out = model.generate(input_ids, (input_ids > 0).astype(jnp.int32), max_new_tokens=3)
        print(out)
