# source: https://github.com/travaj24/LumenAiry/blob/a44e0802bfdcc73d43a663f0836bee7863732f88/tests/unit/test_jax_symmetric_point_gradients.py
# category: C
# expect: raises
# via: jit-call, method, helper
# sink: global-write
"""RCWAStack caches its superstrate and substrate half-space modes in a module-level cache even
while a jax.jit trace is running, so the cache holds tracers and a following eager solve of the
same stack fails with an escaped tracer."""
import threading

import numpy as np
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)

_HOMOG_CACHE: dict = {}
_HOMOG_LOCK = threading.Lock()


def _homogeneous_eigenmodes(Kx, Ky, eps):
    kz = jnp.sqrt(eps - Kx ** 2 - Ky ** 2 + 0j)
    return jnp.where(jnp.imag(kz) < 0, -kz, kz)


def _cached_homogeneous_eigenmodes(eps, Kx, Ky, key):
    with _HOMOG_LOCK:
        hit = _HOMOG_CACHE.get(key)
    if hit is not None:
        return hit
    res = _homogeneous_eigenmodes(Kx, Ky, eps)
    with _HOMOG_LOCK:
        _HOMOG_CACHE[key] = res  # <-- bug
    return res


class RCWAResult:
    def __init__(self, orders, R, T):
        self.orders, self.R, self.T = orders, R, T

    def efficiencies(self):
        return self.orders, self.R, self.T


class RCWAStack:
    def __init__(self, period, n_superstrate=1.0, n_substrate=1.45, n_orders=3):
        self.period, self.n_sup, self.n_sub, self.n_orders = period, n_superstrate, n_substrate, n_orders
        self.layers = []

    def add_layer(self, thickness, eps_cell=None, eps=None):
        self.layers.append((thickness, eps_cell if eps_cell is not None else eps))

    def set_source(self, wavelength, theta=0.0):
        self.wavelength, self.theta = wavelength, theta

    def solve(self):
        N, wl = self.n_orders, self.wavelength
        orders = jnp.arange(-N, N + 1)
        Kx = self.n_sup * jnp.sin(self.theta) + orders * wl / self.period
        Ky = jnp.zeros_like(Kx)
        base = (wl, self.period, N, self.theta)
        kz_sup = _cached_homogeneous_eigenmodes(self.n_sup ** 2, Kx, Ky, ("sup", self.n_sup) + base)
        kz_sub = _cached_homogeneous_eigenmodes(self.n_sub ** 2, Kx, Ky, ("sub", self.n_sub) + base)
        phase, kz_prev, r_tot = 0.0, kz_sup, jnp.zeros_like(kz_sup)
        for thickness, eps in self.layers:
            kz_l = _homogeneous_eigenmodes(Kx, Ky, jnp.mean(jnp.asarray(eps)))
            r = (kz_prev - kz_l) / (kz_prev + kz_l)
            r_tot = r_tot + r * jnp.exp(2j * phase)
            phase = phase + 2 * jnp.pi / wl * kz_l * thickness
            kz_prev = kz_l
        r_tot = r_tot + (kz_prev - kz_sub) / (kz_prev + kz_sub) * jnp.exp(2j * phase)
        R = jnp.real(kz_sup) / jnp.real(kz_sup[N]) * jnp.abs(r_tot) ** 2 / (2 * N + 1)
        return RCWAResult(orders, R, jnp.clip(1.0 - R, 0.0, 1.0))


_BASE = np.array([[1.0, 1.5, 1.0], [1.5, 4.0, 1.5], [1.0, 1.5, 1.0]])
_DIRN = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


def f(t):
    st = RCWAStack(1.2, n_superstrate=1.0, n_substrate=1.45, n_orders=3)
    st.add_layer(0.45, eps_cell=(jnp.asarray(_BASE) + t * jnp.asarray(_DIRN)).astype(complex))
    st.add_layer(0.1, eps=2.25)
    st.set_source(1.0, theta=0.0)
    _o, R, T = st.solve().efficiencies()
    return jnp.sum(R[2:5])


if __name__ == "__main__":
    print(float(jax.jit(f)(0.0)))
    print(float(f(0.0)))  # <-- bug
