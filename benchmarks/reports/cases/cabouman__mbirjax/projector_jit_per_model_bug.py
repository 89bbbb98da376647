# source: https://github.com/cabouman/mbirjax/commit/0c36dd0a918d788a7b218f3f8934f649f69a46c4
# category: R
# expect: recompiles
# via: method, factory-closure, jit-call, partial-jit, static-argnums, vmap, namedtuple, host-loop
# sink: fresh-callable
"""Every `ParallelBeamModel` builds its own `Projectors`, which wraps a fresh closure in `jax.jit`
and hands the per-view kernel a `ProjectorParams`/`GeometryParams` pair whose namedtuple classes are
created anew on each call, so a second model with the same geometry traced and compiled everything
again.  The commit moves the projector to a module-level jitted function and reuses one namedtuple
class per geometry."""
from collections import namedtuple
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


class ParallelBeamModel:
    def __init__(self, sinogram_shape, angles):
        num_views, num_det_rows, num_det_channels = sinogram_shape
        self.params = {'sinogram_shape': sinogram_shape, 'angles': jnp.asarray(angles),
                       'recon_shape': (num_det_channels, num_det_channels, num_det_rows),
                       'delta_det_channel': 1.0, 'det_channel_offset': 0.0, 'delta_voxel': 1.0}
        self.create_projectors()

    def get_params(self, names):
        return [self.params[n] for n in names] if isinstance(names, list) else self.params[names]

    def get_geometry_parameters(self):
        geometry_param_names = ['delta_det_channel', 'det_channel_offset', 'delta_voxel']
        geometry_param_values = self.get_params(geometry_param_names)
        GeometryParams = namedtuple('GeometryParams', geometry_param_names)
        return GeometryParams(*geometry_param_values)

    @staticmethod
    @partial(jax.jit, static_argnames='projector_params')
    def forward_project_pixel_batch_to_one_view(voxel_values, pixel_indices, angle, projector_params):
        num_rows, num_cols, _ = projector_params.recon_shape
        num_det_channels = projector_params.sinogram_shape[2]
        gp = projector_params.geometry_params
        row, col = jnp.divmod(pixel_indices, num_cols)
        x = (col - (num_cols - 1) / 2) * gp.delta_voxel
        y = ((num_rows - 1) / 2 - row) * gp.delta_voxel
        u = (x * jnp.cos(angle) + y * jnp.sin(angle)) / gp.delta_det_channel
        u = u + (num_det_channels - 1) / 2 + gp.det_channel_offset
        left = jnp.clip(jnp.floor(u).astype(jnp.int32), 0, num_det_channels - 2)
        w = jnp.clip(u - left, 0.0, 1.0)
        view = jnp.zeros((voxel_values.shape[1], num_det_channels))
        view = view.at[:, left].add(((1 - w)[:, None] * voxel_values).T)
        return view.at[:, left + 1].add((w[:, None] * voxel_values).T)

    def create_projectors(self):
        self.projector_functions = Projectors(self)
        self.sparse_forward_project = self.projector_functions.sparse_forward_project


class Projectors:
    def __init__(self, tomography_model):
        self.tomography_model = tomography_model
        self.create_projectors(tomography_model)

    def create_projectors(self, tomography_model):
        forward_project_pixel_batch_to_one_view = tomography_model.forward_project_pixel_batch_to_one_view
        geometry_params = tomography_model.get_geometry_parameters()
        sinogram_shape, recon_shape = tomography_model.get_params(['sinogram_shape', 'recon_shape'])
        ProjectorParams = namedtuple('ProjectorParams', ['sinogram_shape', 'recon_shape', 'geometry_params'])
        projector_params = ProjectorParams(sinogram_shape, recon_shape, geometry_params)
        self.view_params_array = tomography_model.get_params('angles')

        def sparse_forward_project_fcn(view_params_array, voxel_values, pixel_indices):
            def forward_project_single_view(single_view_params):
                return forward_project_pixel_batch_to_one_view(voxel_values, pixel_indices,
                                                               single_view_params, projector_params)
            return jax.vmap(forward_project_single_view)(view_params_array)

        self._jit_sparse_forward_project = jax.jit(sparse_forward_project_fcn)

        def sparse_forward_project_public(voxel_values, pixel_indices):
            return self._jit_sparse_forward_project(self.view_params_array, voxel_values, pixel_indices)  # <-- bug

        self.sparse_forward_project = sparse_forward_project_public


if __name__ == "__main__":
    sinogram_shape = (12, 4, 16)
    angles = np.linspace(0, np.pi, 12, endpoint=False)
    pixel_indices = jnp.arange(16 * 16)
    for seed in range(3):
        model = ParallelBeamModel(sinogram_shape, angles)
        phantom = jax.random.uniform(jax.random.PRNGKey(seed), (16 * 16, 4))
        sino = model.sparse_forward_project(phantom, pixel_indices)
        print(seed, sino.shape, float(sino.sum()))
