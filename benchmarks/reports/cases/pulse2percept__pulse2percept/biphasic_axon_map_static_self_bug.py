# source: https://github.com/pulse2percept/pulse2percept/commit/dfc8827ce740c08724619113ccb669d52c6e7d6c
# category: B
# expect: raises
# via: method, partial-jit, static-argnums, wrapper, vmap
# sink: static-unhashable
"""pulse2percept's jax engine jits `_predict_spatial_jax` with `self` static, but its models
define `__eq__` (attribute-wise) without `__hash__`, which makes them unhashable, so the first
jax prediction fails (the fix adds an identity `__hash__`)."""
from functools import partial

import numpy as np
import jax
import jax.numpy as jnp
from jax import jit


def cond_jit(fn, static_argnums=None):
    """ Conditional decorator for jax jit"""
    if static_argnums is None:
        return jit(fn)
    return jit(fn, static_argnums=static_argnums)


class BaseModel:
    def __init__(self, **params):
        for key, value in self.get_default_params().items():
            setattr(self, key, params.get(key, value))

    def get_default_params(self):
        return {}

    def __eq__(self, other):
        if not isinstance(other, self.__class__):
            return False
        if id(self) == id(other):
            return True
        return self.__dict__ == other.__dict__


class DefaultBrightModel(BaseModel):
    def get_default_params(self):
        return {"a0": 1.84, "a1": 0.2}

    def __call__(self, freq, amp, pdur):
        return self.a0 * amp + self.a1 * freq / 20.0


class DefaultSizeModel(BaseModel):
    def get_default_params(self):
        return {"rho": 200.0}

    def __call__(self, freq, amp, pdur):
        return jnp.maximum(0.5 + 0.3 * amp, 0.1)


class DefaultStreakModel(BaseModel):
    def get_default_params(self):
        return {"a7": 0.54}

    def __call__(self, freq, amp, pdur):
        return jnp.maximum(1.0 - self.a7 * pdur, 0.2)


class BiphasicAxonMapSpatial(BaseModel):
    def get_default_params(self):
        return {"rho": 200.0, "thresh_percept": 0.0, "engine": "jax"}

    def build(self):
        self.bright_model = DefaultBrightModel()
        self.size_model = DefaultSizeModel()
        self.streak_model = DefaultStreakModel()
        # closest axon segments per pixel: (n_points, n_segments, [x, y, sensitivity])
        gx, gy = np.meshgrid(np.linspace(-400, 400, 9), np.linspace(-300, 300, 7))
        pts = np.stack([gx.ravel(), gy.ravel()], axis=1).astype(np.float32)
        offs = np.linspace(0.0, 150.0, 5, dtype=np.float32)
        segs = np.stack(
            [pts[:, None, 0] + offs[None, :], pts[:, None, 1] + 0.3 * offs[None, :], np.exp(-offs / 300.0)[None, :].repeat(len(pts), 0)],
            axis=-1,
        )
        self.axon_contrib = jnp.array(segs, dtype=jnp.float32)
        return self

    def predict_one_point_jax(self, axon, eparams, x, y, rho):
        d2_el = (axon[:, 0, None] - x) ** 2 + (axon[:, 1, None] - y) ** 2
        intensities = eparams[:, 0] * jnp.exp(-d2_el / (2.0 * rho**2 * eparams[:, 1])) * (
            axon[:, 2, None] ** (1.0 / eparams[:, 2])
        )
        return jnp.sum(intensities, axis=1)

    @partial(cond_jit, static_argnums=[0])
    def biphasic_axon_map_jax(self, eparams, x, y, axon_segments, rho, thresh_percept):
        I = jnp.max(jax.vmap(self.predict_one_point_jax, in_axes=[0, None, None, None, None])(
            axon_segments, eparams, x, y, rho), axis=1)
        I = (I > thresh_percept) * I
        return I

    @partial(cond_jit, static_argnums=[0])
    def _predict_spatial_jax(self, elec_params, x, y):
        bright_effects = jnp.array(self.bright_model(elec_params[:, 0], elec_params[:, 1], elec_params[:, 2])).reshape((-1))
        size_effects = jnp.array(self.size_model(elec_params[:, 0], elec_params[:, 1], elec_params[:, 2])).reshape((-1))
        streak_effects = jnp.array(self.streak_model(elec_params[:, 0], elec_params[:, 1], elec_params[:, 2])).reshape((-1))
        eparams = jnp.stack([bright_effects, size_effects, streak_effects], axis=1)
        return self.biphasic_axon_map_jax(eparams, x, y, self.axon_contrib, self.rho, self.thresh_percept)

    def _predict_spatial(self, elec_params, x, y):
        elec_params = np.array(elec_params, dtype=np.float32)
        x = np.array(x, dtype=np.float32)
        y = np.array(y, dtype=np.float32)
        return self._predict_spatial_jax(elec_params[:, :3], x, y)  # <-- bug


if __name__ == "__main__":
    model = BiphasicAxonMapSpatial(rho=150.0).build()
    # freq, amp, phase duration for two electrodes
    percept = model._predict_spatial([[20.0, 1.5, 0.45], [40.0, 0.8, 0.45]], [-200.0, 150.0], [0.0, 100.0])
    print(percept.shape, float(percept.max()), float(percept.sum()))
