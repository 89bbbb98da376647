# source: https://github.com/codestella/putting-nerf-on-a-diet/commit/ce520491fe51fbff9f3024622d7c4e0ba11ad221
# category: B
# expect: raises
# via: jit-decorator, flax-linen, grad, helper
# sink: static-spec
"""The NeRF training step `single_step` is decorated with a bare `@jit` although it receives the
sample count and the Flax model itself as arguments; jit rejects the Module as an invalid JAX
type. The fix jits it with `static_argnums=[6, 7]` for `N_samples` and `model`."""
import flax.linen as nn
import jax
import jax.numpy as np
from jax import jit, random


class NeRF(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(4)(nn.relu(nn.Dense(16)(x)))


def render_rays(rnd_input, model, params, rays, near, far, N_samples, rand=False):
    rays_o, rays_d = rays
    z_vals = np.linspace(near, far, N_samples)
    if rand:
        z_vals += random.uniform(rnd_input, shape=list(rays_o.shape[:-1]) + [N_samples]) * (far - near) / N_samples
    pts = rays_o[..., None, :] + rays_d[..., None, :] * z_vals[..., :, None]
    raw = model.apply(params, np.reshape(pts, [-1, 3]))
    raw = np.reshape(raw, list(pts.shape[:-1]) + [4])
    rgb, sigma_a = jax.nn.sigmoid(raw[..., :3]), jax.nn.relu(raw[..., 3])
    dists = np.concatenate([z_vals[..., 1:] - z_vals[..., :-1], np.broadcast_to(1e10, z_vals[..., :1].shape)], -1)
    alpha = 1. - np.exp(-sigma_a * dists)
    trans = np.concatenate([np.ones_like(alpha[..., :1]), 1. - alpha[..., :-1] + 1e-10], -1)
    weights = alpha * np.cumprod(trans, -1)
    return np.sum(weights[..., None] * rgb, -2)


@jit
def single_step(rng, image, rays, params, bds, inner_step_size, N_samples, model):
    def sgd(param, update):
        return param - inner_step_size * update

    rng, rng_inputs = jax.random.split(rng)

    def loss_model(params):
        g = render_rays(rng_inputs, model, params, rays, bds[0], bds[1], N_samples, rand=True)
        return mse_fn(g, image)

    model_loss, grad = jax.value_and_grad(loss_model)(params)
    new_params = jax.tree_util.tree_map(sgd, params, grad)
    return rng, new_params, model_loss


mse_fn = jit(lambda x, y: np.mean((x - y)**2))


if __name__ == "__main__":
    model = NeRF()
    rng = random.PRNGKey(0)
    params = model.init(rng, np.ones((1, 3)))
    rays = (np.zeros((8, 3)), np.ones((8, 3)) / np.sqrt(3.0))
    image = np.full((8, 3), 0.5)
    bds = np.array([2.0, 6.0])
    for _ in range(3):
        rng, params, loss = single_step(rng, image, rays, params, bds, 0.1, 16, model)  # <-- bug
    print(loss)
