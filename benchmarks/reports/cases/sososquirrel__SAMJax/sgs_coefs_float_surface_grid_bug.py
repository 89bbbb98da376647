# source: https://github.com/sososquirrel/SAMJax/commit/d4c757fc66eb48c7f73e269a803952bc43b20cb9
# category: A
# expect: raises
# via: partial-jit, static-argnums, dict-of-arrays, dataclass, namedtuple, helper
# sink: int-float-bool
"""The surface equilibrium floor for the SGS eddy viscosity took `float()` of grid spacings read
from the metric dict; the dict is an argument of the jitted step, so its entries are tracers."""
import functools
from dataclasses import dataclass
from typing import NamedTuple

import jax
import jax.numpy as jnp

G_GRAV = 9.81


@dataclass(frozen=True)
class SGSParams:
    Cs: float = 0.19
    Ck: float = 0.1
    Pr: float = 1.0
    delta_max: float = 1000.0


class ModelState(NamedTuple):
    U: jax.Array
    TKE: jax.Array


def _sgs_coefs(state, metric, params, dt, tabs0=None, fluxbt=None, fluxbq=None):
    tk = params.Ck * jnp.abs(state.U) * metric["dz"][:, None, None]
    if fluxbt is not None and tabs0 is not None:
        _Ce = params.Ck**3 / params.Cs**4
        _Cee = _Ce / 0.7 * 0.19 + _Ce / 0.7 * 0.51
        _bet0 = G_GRAV / tabs0[0]
        _fbq = fluxbq if fluxbq is not None else jnp.zeros_like(fluxbt)
        _a_prod_bu = _bet0 * (fluxbt + 0.61 * tabs0[0] * _fbq)
        _dz_ref = metric["dz_ref"]
        _dx_sfc = metric["dx_lon"]
        _cos_lat10 = metric.get("cos_lat", None)
        _dy_sfc = metric.get("dy_lat", None)
        if _cos_lat10 is not None:
            _dx_eff10 = jnp.minimum(params.delta_max, _dx_sfc * _cos_lat10)
        else:
            _dx_eff10 = jnp.minimum(params.delta_max, float(_dx_sfc)) * jnp.ones((1,))  # <-- bug
        if _dy_sfc is not None:
            _dy_eff10 = jnp.minimum(params.delta_max, _dy_sfc)
        else:
            _dy_eff10 = jnp.minimum(params.delta_max,
                                    float(metric.get("dy_lat_ref", _dx_sfc))) * jnp.ones((1,))
        _coef10 = _dx_eff10 * _dy_eff10
        _grd10 = (float(_dz_ref) * _coef10) ** 0.33333
        _tke_eq = (_grd10[:, None] / _Cee * jnp.maximum(1e-20, 0.5 * _a_prod_bu)) ** (2.0 / 3.0)
        _tk_eq = jnp.where(_a_prod_bu > 0.0, params.Ck * _grd10[:, None] * jnp.sqrt(_tke_eq), 0.0)
        tk = tk.at[0].set(jnp.maximum(tk[0], _tk_eq))
    return tk, tk / params.Pr


@functools.partial(jax.jit, static_argnames=("params",))
def sgs_step(state, metric, params, dt, tabs0, fluxbt):
    tk, tkh = _sgs_coefs(state, metric, params, dt, tabs0=tabs0, fluxbt=fluxbt)
    return state._replace(TKE=tk), tkh


if __name__ == "__main__":
    nz, ny, nx = 4, 3, 5
    state = ModelState(U=jnp.ones((nz, ny, nx)), TKE=jnp.zeros((nz, ny, nx)))
    metric = {"dz": jnp.full((nz,), 50.0), "dz_ref": jnp.asarray(50.0),
              "dx_lon": jnp.asarray(2000.0), "dy_lat_ref": jnp.asarray(2000.0)}
    tabs0 = jnp.linspace(300.0, 280.0, nz)
    fluxbt = jnp.full((ny, nx), 0.01)
    state, tkh = sgs_step(state, metric, SGSParams(), 10.0, tabs0, fluxbt)
    print(round(float(state.TKE[0].mean()), 3), round(float(tkh.max()), 3))
