# source: https://github.com/lenstronomy/JAXtronomy/commit/2d14825418dafb34c993bcdc049d39bde7978534
# category: B
# expect: raises
# via: partial-jit, static-argnums, method, helper, host-loop
# sink: static-unhashable
"""The multi-frame position likelihood looks up, for each image, the list of lens-model indices
of its frame (`k_list[i]`) and hands it to the jitted `ray_shooting(..., k=k_lens)`, where `k`
is a static argument; a Python list cannot be hashed, so jit refuses it.  The fix converts it
with `tuple(...)`."""
from functools import partial

import jax.numpy as jnp
from jax import jit


class SinglePlane:
    def __init__(self, lens_model_list):
        self.func_list = lens_model_list

    @partial(jit, static_argnums=(0, 4))
    def ray_shooting(self, x, y, kwargs, k=None):
        indices = range(len(self.func_list)) if k is None else k
        dx, dy = 0.0, 0.0
        for i in indices:
            theta_E = kwargs[i]["theta_E"]
            r = jnp.sqrt(x**2 + y**2)
            dx, dy = dx + theta_E * x / r, dy + theta_E * y / r
        return x - dx, y - dy


class PointSource:
    def __init__(self, index_lens_model_list, point_source_frame_list):
        self._index_lens_model_list = index_lens_model_list
        self._point_source_frame_list = point_source_frame_list

    def k_list(self, k):
        k_list = []
        for frame in self._point_source_frame_list[k]:
            k_list.append(self._index_lens_model_list[frame])
        return k_list


class PositionLikelihood:
    def __init__(self, lens_model, point_source):
        self._lensModel = lens_model
        self._pointSource = point_source

    def source_position_likelihood(self, kwargs_lens, kwargs_ps, sigma):
        logL = 0.0
        for k in range(len(kwargs_ps)):
            x_image, y_image = kwargs_ps[k]["ra_image"], kwargs_ps[k]["dec_image"]
            k_list = self._pointSource.k_list(k)
            xs, ys = [], []
            for i in range(len(x_image)):
                k_lens = k_list[i]
                x_s, y_s = self._lensModel.ray_shooting(x_image[i], y_image[i], kwargs_lens, k=k_lens)  # <-- bug
                xs.append(x_s)
                ys.append(y_s)
            xs, ys = jnp.stack(xs), jnp.stack(ys)
            logL -= jnp.sum((xs - xs.mean()) ** 2 + (ys - ys.mean()) ** 2) / (2 * sigma**2)
        return logL


if __name__ == "__main__":
    lens = SinglePlane(["SIS", "SIS"])
    ps = PointSource(index_lens_model_list=[[0, 1], [1]], point_source_frame_list=[[0, 0, 0]])
    likelihood = PositionLikelihood(lens, ps)
    kwargs_lens = [{"theta_E": 1.0}, {"theta_E": 1.2}]
    kwargs_ps = [{"ra_image": jnp.array([1.1, -0.9, 0.3]), "dec_image": jnp.array([0.2, -0.4, 1.0])}]
    print(likelihood.source_position_likelihood(kwargs_lens, kwargs_ps, sigma=0.01))
