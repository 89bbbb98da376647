# source: https://github.com/stnava/syntx/commit/792286122978a3bc38323039c47d19aa2860c156
# category: B
# expect: ok
# via: partial-jit, static-argnums, vmap, helper
# sink: static-array
"""syntx's JAX helper test after the fix: the call passes the affine grid in its own slot, so
`has_spacing` and `spacing` reach the static positions and the grids stay traced."""
from functools import partial

import jax
import jax.numpy as jnp


def jax_grid_sample(image, grid, mode="bilinear", padding_mode="border"):
    order = 1 if mode == "bilinear" else 0
    spatial_source = image.shape[2:]
    spatial_target = grid.shape[1:-1]
    ndim = len(spatial_source)
    coords = []
    for d in range(ndim):
        size = spatial_source[d]
        coords.append((grid[..., ndim - 1 - d] + 1.0) * (size - 1) / 2.0)
    coords_stacked = jnp.stack(coords, axis=1)

    def sample_single(img_ch, coord_ch):
        flat = coord_ch.reshape(ndim, -1)
        jax_mode = "nearest" if padding_mode == "border" else "constant"
        out = jax.scipy.ndimage.map_coordinates(img_ch, flat, order=order, mode=jax_mode, cval=0.0)
        return out.reshape(spatial_target)

    per_channel = jax.vmap(sample_single, in_axes=(0, None))
    return jax.vmap(per_channel, in_axes=(0, 0))(image, coords_stacked)


def _spatial_jacobian_nd_jax(field, physical_spacing=None):
    spatial = field.shape[1:-1]
    spacings = list(physical_spacing) if physical_spacing is not None else [2.0 / (s - 1) for s in spatial]
    grads = jnp.gradient(field, *spacings, axis=tuple(range(1, len(spatial) + 1)))
    return jnp.stack(grads, axis=-1)


@partial(jax.jit, static_argnums=(5, 6))
def prepare_mid_images_and_gradients_jax(
    warp_l2r, warp_r2l, I_curr, J_curr, affine_grid_level, has_spacing, spacing, identity
):
    phi_l2r = affine_grid_level + warp_l2r
    phi_r2l = identity + warp_r2l
    I_mid = jax_grid_sample(I_curr, phi_l2r)
    J_mid = jax_grid_sample(J_curr, phi_r2l)
    spatial_shape = warp_l2r.shape[1:-1]
    if has_spacing:
        spacing_for_jacobian = spacing
    else:
        spacing_for_jacobian = tuple(2.0 / (s - 1) for s in spatial_shape)
    grad_I = _spatial_jacobian_nd_jax(jnp.moveaxis(I_curr, 1, -1), spacing_for_jacobian).squeeze(-2)
    grad_J = _spatial_jacobian_nd_jax(jnp.moveaxis(J_curr, 1, -1), spacing_for_jacobian).squeeze(-2)
    grad_I_mid = jnp.moveaxis(jax_grid_sample(jnp.moveaxis(grad_I, -1, 1), phi_l2r), 1, -1)
    grad_J_mid = jnp.moveaxis(jax_grid_sample(jnp.moveaxis(grad_J, -1, 1), phi_r2l), 1, -1)
    return I_mid, J_mid, grad_I_mid, grad_J_mid


def test_new_jax_helpers():
    shape = (16, 16)
    warp_l2r = jnp.zeros((1, 16, 16, 2))
    warp_r2l = jnp.zeros((1, 16, 16, 2))
    I_curr = jnp.ones((1, 1, 16, 16))
    J_curr = jnp.ones((1, 1, 16, 16))
    grids = [jnp.linspace(-1.0, 1.0, size) for size in shape]
    identity = jnp.expand_dims(jnp.stack(list(reversed(jnp.meshgrid(*grids, indexing="ij"))), axis=-1), 0)

    spacing_arg = (1.0, 1.0)
    I_mid, J_mid, grad_I, grad_J = prepare_mid_images_and_gradients_jax(
        warp_l2r, warp_r2l, I_curr, J_curr, identity,
        True, spacing_arg, identity
    )
    assert I_mid.shape == (1, 1, 16, 16)
    assert grad_I.shape == (1, 16, 16, 2)
    return I_mid, grad_I


if __name__ == "__main__":
    I_mid, grad_I = test_new_jax_helpers()
    print(float(I_mid.sum()), float(grad_I.sum()))
