# source: https://github.com/JokerYan/NeRF-DS/issues/3
# category: C
# expect: stale
# via: pmap, grad, host-loop, flax-linen
# sink: print
"""Trying to inspect tensors of the NeRF-DS training loop, a user adds a `print` inside
`train_step`, which the script runs as `ptrain_step = jax.pmap(train_step, ...)`; the print fires
only while pmap traces the step and shows tracers, not the values of each iteration."""
import functools

import flax.linen as nn
import jax
import jax.numpy as jnp


class NerfMLP(nn.Module):
    width: int = 16

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(self.width)(x))
        return nn.Dense(4)(x)


model = NerfMLP()


def train_step(params, batch, learning_rate):
    def loss_fn(params):
        out = model.apply(params, batch["points"])
        rgb = jax.nn.sigmoid(out[..., :3])
        return jnp.mean((rgb - batch["rgb"]) ** 2)

    loss, grad = jax.value_and_grad(loss_fn)(params)
    grad = jax.lax.pmean(grad, axis_name="batch")
    print("rgb loss", loss)  # <-- bug
    params = jax.tree_util.tree_map(lambda p, g: p - learning_rate * g, params, grad)
    return params, jax.lax.pmean(loss, axis_name="batch")


ptrain_step = jax.pmap(train_step, axis_name="batch", in_axes=(0, 0, None))


if __name__ == "__main__":
    n = jax.local_device_count()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 3)))
    params = jax.tree_util.tree_map(lambda x: jnp.stack([x] * n), params)
    for step in range(3):
        pts = jax.random.uniform(jax.random.PRNGKey(step), (n, 32, 3))
        batch = {"points": pts, "rgb": pts[..., ::-1]}
        params, loss = ptrain_step(params, batch, 0.1)
        print(step, round(float(loss[0]), 5))
