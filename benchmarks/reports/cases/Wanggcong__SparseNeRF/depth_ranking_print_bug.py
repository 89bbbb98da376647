# source: https://github.com/Wanggcong/SparseNeRF/issues/16
# category: C
# expect: stale
# via: jit-decorator, grad, helper, host-loop
# sink: print
"""A user debugging the SparseNeRF training step puts a `print` of the two ray depths it compares
inside the jitted step; the print runs once while the step is traced and shows
`Traced<ShapedArray(float32[2])>` rather than the depths of each step."""
import functools

import jax
import jax.numpy as jnp


def render_depth(params, rays):
    weights = jax.nn.softmax(rays @ params["w"], axis=-1)
    return jnp.sum(weights * jnp.linspace(2.0, 6.0, weights.shape[-1]), axis=-1)


def depth_ranking_loss(params, rays, margin=1e-4):
    depth = render_depth(params, rays)
    pair = depth[:2]
    print("depth pair:", pair)  # <-- bug
    return jnp.mean(jax.nn.relu(pair[0] - pair[1] + margin))


def loss_fn(params, batch):
    rgb = jax.nn.sigmoid(batch["rays"] @ params["c"])
    mse = jnp.mean((rgb - batch["rgb"]) ** 2)
    return mse + 0.1 * depth_ranking_loss(params, batch["rays"])


@functools.partial(jax.jit)
def train_step(params, batch, lr):
    loss, grads = jax.value_and_grad(loss_fn)(params, batch)
    params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    return params, loss


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    params = {"w": 0.1 * jax.random.normal(key, (6, 16)), "c": 0.1 * jnp.ones((6, 3))}
    for step in range(3):
        rays = jax.random.normal(jax.random.PRNGKey(step + 1), (8, 6))
        batch = {"rays": rays, "rgb": jnp.full((8, 3), 0.5)}
        params, loss = train_step(params, batch, 0.1)
        print(step, round(float(loss), 5))
