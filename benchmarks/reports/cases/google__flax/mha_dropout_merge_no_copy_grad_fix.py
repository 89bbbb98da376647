# source: https://github.com/google/flax/issues/5050
# category: C
# expect: ok
# via: flax-nnx, grad
# sink: attribute-write
"""Merging with `copy=True` builds fresh objects inside the gradient's trace, so the dropout's RNG
counter that is advanced belongs to that trace and nothing outside it is changed."""
import flax.nnx as nnx
import jax
import jax.numpy as jnp

model = nnx.MultiHeadAttention(8, 8, 8, 8, rngs=nnx.Rngs(0), dropout_rate=0.1)
graphdef, params, state = nnx.split(model, nnx.Param, ...)


def loss(params, state):
    model = nnx.merge(graphdef, params, state, copy=True)
    model.train()
    logits = model(jnp.ones((4, 16, 8)), decode=False)
    return logits.sum()


if __name__ == "__main__":
    grads = jax.grad(loss)(params, state)
    print(jax.tree.map(lambda g: g.shape, grads))
