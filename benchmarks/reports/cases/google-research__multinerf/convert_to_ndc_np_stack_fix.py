# source: https://github.com/google-research/multinerf/pull/62
# category: A
# expect: ok
# via: jit-call, helper, factory-closure
# sink: numpy-call
"""With rays cast inside the jitted train step, the NDC conversion stacks its far points with
`xnp.stack` and is handed the `xnp` module of its caller, so traced arrays stay in jax.numpy."""
import functools

import jax
import jax.numpy as jnp
import numpy as np


def convert_to_ndc(origins, directions, pixtocam, near=1., xnp=np):
  """Converts a set of rays to normalized device coordinates (NDC)."""
  t = -(near + origins[..., 2]) / directions[..., 2]
  origins = origins + t[..., None] * directions
  dx, dy, dz = xnp.moveaxis(directions, -1, 0)
  ox, oy, oz = xnp.moveaxis(origins, -1, 0)
  xmult = 1. / pixtocam[0, 2]
  ymult = 1. / pixtocam[1, 2]
  origins_ndc = xnp.stack([xmult * ox / oz, ymult * oy / oz, -xnp.ones_like(oz)], axis=-1)
  infinity_ndc = xnp.stack([xmult * dx / dz, ymult * dy / dz, xnp.ones_like(oz)], axis=-1)
  directions_ndc = infinity_ndc - origins_ndc
  return origins_ndc, directions_ndc


def pixels_to_rays(pix_x, pix_y, pixtocams, camtoworlds, pixtocam_ndc=None, xnp=np):
  pixel_dirs = xnp.stack([pix_x + .5, pix_y + .5, xnp.ones_like(pix_x)], axis=-1)
  camera_dirs = xnp.einsum('ij,...j->...i', pixtocams, pixel_dirs) * xnp.array([1., -1., -1.])
  directions = xnp.einsum('ij,...j->...i', camtoworlds[:3, :3], camera_dirs)
  origins = xnp.broadcast_to(camtoworlds[:3, -1], directions.shape)
  if pixtocam_ndc is not None:
    origins, directions = convert_to_ndc(origins, directions, pixtocam_ndc, xnp=xnp)
  return origins, directions


def create_train_step(cast_rays_in_train_step=True):
  def train_step(params, batch):
    if cast_rays_in_train_step:
      origins, directions = pixels_to_rays(
          batch['pix_x'], batch['pix_y'], batch['pixtocams'], batch['camtoworlds'],
          pixtocam_ndc=batch['pixtocam_ndc'], xnp=jnp)
    else:
      origins, directions = batch['origins'], batch['directions']
    loss = jnp.mean((origins + params * directions) ** 2)
    return params - 0.1 * jax.grad(lambda p: jnp.mean((origins + p * directions) ** 2))(params), loss
  return jax.jit(train_step)


if __name__ == '__main__':
  K = jnp.array([[0.1, 0., -2.], [0., 0.1, -1.5], [0., 0., 1.]])
  batch = {'pix_x': jnp.arange(4.), 'pix_y': jnp.arange(4.) * 2, 'pixtocams': K,
           'camtoworlds': jnp.eye(4)[:3], 'pixtocam_ndc': K}
  params, loss = create_train_step()(jnp.asarray(0.5), batch)
  print(params, loss)
