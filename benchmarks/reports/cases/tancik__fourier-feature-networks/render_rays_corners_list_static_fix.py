# source: https://github.com/tancik/fourier-feature-networks/issues/13
# category: B
# expect: ok
# via: jit-call, static-argnums, host-loop
# sink: static-unhashable
"""The 3D shape occupancy notebook jits its ray renderer with the mesh's bounding-box `corners`
among the static arguments.  Here the corners are handed over as a tuple of two coordinate
tuples, which hashes by value, so the renderer compiles once and previews render."""
import jax
import jax.numpy as np
import numpy as onp
from jax import jit, random
from jax.example_libraries import stax

init_fn, apply_fn = stax.serial(stax.Dense(32), stax.Relu, stax.Dense(1))
input_encoder = jit(lambda x, a, b: np.concatenate([a * np.sin((2. * np.pi * x) @ b.T),
                                                    a * np.cos((2. * np.pi * x) @ b.T)], -1))


def render_rays_native_hier(params, ab, rays, corners, near, far, N_samples, clip):
    rays_o, rays_d = rays[0], rays[1]
    c0, c1 = np.asarray(corners[0]), np.asarray(corners[1])
    z_vals = np.linspace(near, far, N_samples)
    pts = rays_o[..., None, :] + rays_d[..., None, :] * z_vals[..., :, None]
    alpha = jax.nn.sigmoid(np.squeeze(apply_fn(params, input_encoder(.5 * (pts + 1), *ab))))
    if clip:
        mask = np.logical_or(np.any(.5 * (pts + 1) < c0, -1), np.any(.5 * (pts + 1) > c1, -1))
        alpha = np.where(mask, 0., alpha)
    trans = np.concatenate([np.ones_like(alpha[..., :1]), 1. - alpha[..., :-1] + 1e-10], -1)
    weights = alpha * np.cumprod(trans, -1)
    return np.sum(weights * z_vals, -1), np.sum(weights, -1)


render_rays = jit(render_rays_native_hier, static_argnums=(3, 4, 5, 6, 7))


if __name__ == "__main__":
    vertices = onp.random.RandomState(0).uniform(size=(50, 3))
    c0, c1 = vertices.min(0) - 1e-3, vertices.max(0) + 1e-3
    corners = (tuple(c0.tolist()), tuple(c1.tolist()))
    bvals = onp.random.RandomState(1).normal(size=[16, 3]) * 4.
    ab = (np.ones_like(bvals[:, 0]), bvals)
    _, params = init_fn(random.PRNGKey(0), (-1, 32))
    rays = random.normal(random.PRNGKey(1), (2, 8, 8, 3))
    render_args_lr = [rays, corners, 1., 3., 16, True]
    for i in range(2):
        depth, acc = render_rays(params, ab, *render_args_lr)
        print(i, float(depth.mean()), float(acc.mean()))
