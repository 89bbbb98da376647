# source: https://github.com/felafax/felafax/commit/e176e038b96f35bcb0721a68d60f11c1bbded624
# category: B
# expect: raises
# via: method, jit-call, static-argnums, flax-linen
# sink: static-unhashable
"""The trainer jitted its bound method `self.forward_pass` with `static_argnums=(0,)`, meaning to
keep `self` out of tracing; but a bound method has already consumed `self`, so position 0 is the
`params` dict, and JAX rejects it as a non-hashable static argument on the first call.  (A small
Flax model stands in for the LLaMA model.)"""
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax


class TinyLM(nn.Module):
    vocab: int = 16

    @nn.compact
    def __call__(self, tokens):
        h = nn.Embed(self.vocab, 8)(tokens)
        return nn.Dense(self.vocab)(h)


class CausalLMTrainer:
    def __init__(self, model, params):
        self.model = model
        self.params = params
        self._jitted_forward = None

    @property
    def jitted_forward(self):
        if self._jitted_forward is None:
            self._jitted_forward = jax.jit(self.forward_pass, static_argnums=(0,))
        return self._jitted_forward

    def forward_pass(self, params, batch, rng):
        logits = self.model.apply({"params": params}, batch["input_tokens"])
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, batch["target_tokens"])
        loss = jnp.sum(loss * batch["loss_masks"]) / jnp.sum(batch["loss_masks"])
        accuracy = jnp.mean(jnp.argmax(logits, -1) == batch["target_tokens"])
        return loss, accuracy, jax.random.split(rng)[0]


if __name__ == "__main__":
    model = TinyLM()
    tokens = jnp.zeros((4, 12), dtype=jnp.int32)
    params = model.init(jax.random.key(0), tokens)["params"]
    trainer = CausalLMTrainer(model, params)
    batch = {"input_tokens": tokens, "target_tokens": tokens, "loss_masks": jnp.ones((4, 12))}
    rng = jax.random.key(1)
    for step in range(2):
        loss, acc, rng = trainer.jitted_forward(trainer.params, batch, rng)  # <-- bug
        print(step, float(loss), float(acc))
