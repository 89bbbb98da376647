# source: https://github.com/google/flax/issues/853
# category: B
# expect: ok
# via: flax-linen, partial-jit, static-argnums, helper
# sink: static-spec
"""An evaluation step decorated with `jax.jit` takes the Linen module itself as its first
argument; a Linen Module is not a pytree of arrays, so jit rejects it as an argument it cannot
trace; marking it with `static_argnums=0` makes the (hashable) module a compile-time constant."""
from functools import partial

import jax
import jax.numpy as jnp
from flax import linen as nn


class Model(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.features)(x)


def compute_metrics(logits, labels):
    loss = jnp.mean((logits - labels) ** 2)
    accuracy = jnp.mean(jnp.argmax(logits, -1) == jnp.argmax(labels, -1))
    return {"loss": loss, "accuracy": accuracy}


@partial(jax.jit, static_argnums=0)
def eval_step(model, params, batch):
    logits = model.apply({"params": params}, batch["X"])
    return compute_metrics(logits, batch["y"])


def eval_model(model, params, test_ds):
    metrics = eval_step(model, params, test_ds)
    metrics = jax.device_get(metrics)
    summary = jax.tree_util.tree_map(lambda x: x.item(), metrics)
    return summary["loss"], summary["accuracy"]


if __name__ == "__main__":
    model = Model(3)
    test_ds = {"X": jnp.ones((8, 4)), "y": jax.nn.one_hot(jnp.arange(8) % 3, 3)}
    params = model.init(jax.random.PRNGKey(0), test_ds["X"])["params"]
    print(eval_model(model, params, test_ds))
