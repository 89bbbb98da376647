# source: https://github.com/google/flax/issues/5050
# category: C
# expect: raises
# via: flax-nnx, grad
# sink: attribute-write
"""The reporter splits an NNX attention layer with dropout, merges it back inside a loss taken by
plain `jax.grad` without copying, and calls it in training mode; the dropout's RNG counter belongs
to the outer trace, so advancing it from inside the gradient's trace is refused."""
import flax.nnx as nnx
import jax
import jax.numpy as jnp

model = nnx.MultiHeadAttention(8, 8, 8, 8, rngs=nnx.Rngs(0), dropout_rate=0.1)
graphdef, params, state = nnx.split(model, nnx.Param, ...)


def loss(params, state):
    model = nnx.merge(graphdef, params, state, copy=False)
    model.train()
    logits = model(jnp.ones((4, 16, 8)), decode=False)  # <-- bug
    return logits.sum()


if __name__ == "__main__":
    grads = jax.grad(loss)(params, state)
    print(jax.tree.map(lambda g: g.shape, grads))
