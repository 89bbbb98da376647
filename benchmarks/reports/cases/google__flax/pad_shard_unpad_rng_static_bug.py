# source: https://github.com/google/flax/issues/2410
# category: B
# expect: raises
# via: flax-linen, optax, pmap, wrapper, static-argnums
# sink: static-array
"""A pmapped train step takes the metric name as a static broadcasted argument and is wrapped in
`jax_utils.pad_shard_unpad` with `static_argnums=(0, 1)`; the caller passed the PRNG key in the
metric slot, so pmap tried to hash a device array as a static argument and refused it."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import jax_utils
from flax import linen as nn
from flax.training import train_state


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.relu(nn.Dense(8)(x)))


def train_step(state, metric, batch):
    def loss_fn(params):
        pred = state.apply_fn({"params": params}, batch["x"])
        return jnp.mean((pred[:, 0] - batch["y"]) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    grads = jax.lax.pmean(grads, "batch")
    return state.apply_gradients(grads=grads), {metric: jax.lax.pmean(loss, "batch")}


p_train_step = jax.pmap(train_step, axis_name="batch", static_broadcasted_argnums=(1,))
train_step_padded = jax_utils.pad_shard_unpad(p_train_step, static_argnums=(0, 1), static_return=True)

if __name__ == "__main__":
    model = MLP()
    rng = jax.random.PRNGKey(42)
    params = model.init(rng, jnp.ones((1, 3)))["params"]
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.1))
    state = jax_utils.replicate(state)
    batch = {"x": np.ones((5, 3), np.float32), "y": np.zeros((5,), np.float32)}
    for step in range(2):
        state, metrics = train_step_padded(state, rng, batch)  # <-- bug
        print(step, metrics)
