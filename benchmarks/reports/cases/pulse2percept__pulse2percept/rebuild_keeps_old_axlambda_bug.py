# source: https://github.com/pulse2percept/pulse2percept/issues/551
# category: C
# expect: stale
# via: method, static-argnums, partial-jit, wrapper
# sink: closure-global
"""`BiphasicAxonMapSpatial._predict_spatial_jax` is jitted with `self` static and reads the axon
contributions that `_build` computes from `axlambda`; rebuilding the model with a new `axlambda`
re-wraps the method in `jit` but the static-`self` trace is reused, so predictions keep the old
lambda without any error."""
from functools import partial

import jax.numpy as jnp
from jax import jit


def cond_jit(fn, static_argnums=None):
    """Conditional decorator for jax jit"""
    if static_argnums is None:
        return jit(fn)
    return jit(fn, static_argnums=static_argnums)


class BiphasicAxonMapSpatial:
    def __init__(self, rho=100.0, axlambda=500.0, engine="jax"):
        self.rho = rho
        self.axlambda = axlambda
        self.engine = engine
        self.grid = jnp.linspace(-1000.0, 1000.0, 5)

    def build(self, **params):
        for key, value in params.items():
            setattr(self, key, value)
        self._build()
        return self

    def _build(self):
        # axon segments weighted by the decay along the axon
        self.axon_contrib = jnp.exp(-jnp.abs(self.grid)[:, None] / self.axlambda) * jnp.ones((1, 3))
        if self.engine == "jax":
            # Clear previously cached functions
            self._predict_spatial_jax = jit(self._predict_spatial_jax)

    @partial(cond_jit, static_argnums=[0])
    def _predict_spatial_jax(self, elec_params, x, y):
        d2 = (self.grid[:, None] - x[None, :]) ** 2 + y[None, :] ** 2
        intensities = elec_params[None, :, 1] * jnp.exp(-d2 / (2.0 * self.rho ** 2))
        resp = jnp.max(intensities * self.axon_contrib[:, :1], axis=1)  # <-- bug
        return resp


if __name__ == "__main__":
    elec_params = jnp.array([[20.0, 1.0, 0.45], [20.0, 2.0, 0.45], [20.0, 3.0, 0.45]])
    x = jnp.array([-200.0, 0.0, 200.0])
    y = jnp.zeros(3)
    model = BiphasicAxonMapSpatial(rho=150.0, axlambda=500.0).build()
    print("axlambda=500:", model._predict_spatial_jax(elec_params, x, y))
    model.build(axlambda=50.0)
    print("axlambda=50: ", model._predict_spatial_jax(elec_params, x, y))
