# source: https://github.com/ignaciomagana/darksirens/blob/2105e054df09dbd0dcb9c2ca6d3334ea85e87fc5/darksirens/gw/populations/utils.py
# category: C
# expect: ok
# via: jit-decorator, lax-scan, helper, method
# sink: global-write
"""The lru_cache'd grid builders evaluate jnp.linspace under jax.ensure_compile_time_eval, so a cold
cache first filled inside the jitted selection scan still caches a concrete grid for later traces."""
from dataclasses import dataclass, replace
from functools import lru_cache

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class NormalizationGridSettings:
    m_lo: float = 1.0
    m_hi: float = 200.0
    n_mass: int = 128


_NORMALIZATION_GRID_SETTINGS = NormalizationGridSettings()


def normalization_grid_settings():
    return _NORMALIZATION_GRID_SETTINGS


@lru_cache(maxsize=8)
def _linspace(lo, hi, n):
    with jax.ensure_compile_time_eval():
        return jnp.linspace(lo, hi, int(n))


@lru_cache(maxsize=1)
def get_mass_grid():
    s = normalization_grid_settings()
    return _linspace(s.m_lo, s.m_hi, s.n_mass)


def _clear_grid_caches():
    _linspace.cache_clear()
    get_mass_grid.cache_clear()


def configure_normalization_grids(*, n_mass=None):
    global _NORMALIZATION_GRID_SETTINGS
    if n_mass is not None:
        _NORMALIZATION_GRID_SETTINGS = replace(_NORMALIZATION_GRID_SETTINGS, n_mass=n_mass)
        _clear_grid_caches()
    return _NORMALIZATION_GRID_SETTINGS


class PowerLawMass:
    def _norm(self, alpha):
        m = get_mass_grid()
        return jnp.trapezoid(m ** (-alpha), m)

    def log_p_pop(self, m1, alpha):
        return -alpha * jnp.log(m1) - jnp.log(self._norm(alpha))


MODEL = PowerLawMass()


@jax.jit
def selection(alphas, m1_inj):
    def body(carry, alpha):
        return carry, jax.scipy.special.logsumexp(MODEL.log_p_pop(m1_inj, alpha))

    return jax.lax.scan(body, 0.0, alphas)[1]


@jax.jit
def mean_mass(x):
    return x * get_mass_grid().mean()


if __name__ == "__main__":
    configure_normalization_grids(n_mass=256)
    print(selection(jnp.array([1.5, 2.3, 3.0]), jnp.linspace(5.0, 80.0, 50)))
    print(float(mean_mass(2.0)))
