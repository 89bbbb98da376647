# source: https://github.com/jax-ml/jax/issues/19887
# category: C
# expect: stale
# via: flax-linen, jit-decorator, grad, host-loop
# sink: print
"""Printing `max_reflection_encoding` inside a Flax `NerfModel` whose loss is differentiated in a
jitted train step shows a `Traced<ShapedArray(float32[])>with<JVPTrace...>` description, once,
instead of the value the reporter wanted at each step."""
import flax.linen as nn
import jax
import jax.numpy as jnp


class NerfModel(nn.Module):
    width: int = 32

    @nn.compact
    def __call__(self, x, view_dirs):
        h = nn.relu(nn.Dense(self.width)(x))
        normals = nn.Dense(3)(h)
        reflection = 2.0 * jnp.sum(normals * view_dirs, -1, keepdims=True) * normals - view_dirs
        reflection_encoding = jnp.concatenate([jnp.sin(reflection), jnp.cos(reflection)], -1)
        max_reflection_encoding = jnp.max(reflection_encoding)
        print(max_reflection_encoding)  # <-- bug
        return nn.Dense(3)(jnp.concatenate([h, reflection_encoding], -1))


model = NerfModel()


@jax.jit
def train_step(params, x, view_dirs, target):
    def loss_fn(params):
        rgb = jax.nn.sigmoid(model.apply(params, x, view_dirs))
        return jnp.mean((rgb - target) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    return jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads), loss


if __name__ == "__main__":
    x = jax.random.normal(jax.random.PRNGKey(0), (64, 3))
    view_dirs = x / jnp.linalg.norm(x, axis=-1, keepdims=True)
    params = model.init(jax.random.PRNGKey(1), x, view_dirs)
    for step in range(3):
        params, loss = train_step(params, x, view_dirs, jnp.full((64, 3), 0.3))
        print(step, round(float(loss), 5))
