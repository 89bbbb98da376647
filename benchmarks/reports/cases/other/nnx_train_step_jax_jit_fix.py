# source: https://www.tt.run/en/p/2452754
# category: C
# expect: ok
# via: jit-decorator, flax-nnx, optax, host-loop
# sink: attribute-write
"""A blogger's Flax NNX training step, which updates the model in place through nnx.Optimizer, is
decorated with @nnx.jit, which carries the in-place parameter updates back to the caller's model."""
import jax
import jax.numpy as jnp
import optax
from flax import nnx


class TinyLM(nnx.Module):
    def __init__(self, vocab, dim, rngs):
        self.embed = nnx.Embed(vocab, dim, rngs=rngs)
        self.out = nnx.Linear(dim, vocab, rngs=rngs)

    def __call__(self, tokens):
        return self.out(self.embed(tokens))


def loss_fn(model, tokens, targets):
    logits = model(tokens)
    return optax.softmax_cross_entropy_with_integer_labels(logits, targets).mean()


@nnx.jit
def train_step(model, optimizer, tokens, targets):
    loss, grads = nnx.value_and_grad(loss_fn)(model, tokens, targets)
    optimizer.update(model, grads)
    return loss


if __name__ == "__main__":
    model = TinyLM(16, 8, nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.5), wrt=nnx.Param)
    tokens = jnp.arange(8) % 16
    targets = (tokens + 1) % 16
    for step in range(4):
        loss = train_step(model, optimizer, tokens, targets)
        print(step, float(loss))
