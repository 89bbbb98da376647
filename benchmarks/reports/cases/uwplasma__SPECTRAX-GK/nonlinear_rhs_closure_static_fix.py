# source: https://github.com/uwplasma/SPECTRAX-GK/commit/d5b262df54dc8ac8d77b3c79ad391ac1b3fdaf6a
# category: R
# expect: ok
# via: helper, factory-closure, partial-jit, static-argnums, namedtuple, dataclass, lax-scan, host-loop
# sink: changing-static
"""`integrate_nonlinear_cached` hands `integrate_nonlinear_scan` one module-level
`_nonlinear_rhs_scan`, with the cache and parameters passed as dynamic `rhs_args` and only the
model switches as static `rhs_static_args`, so warm repeats of the nonlinear integration reuse
the compiled scan.
(The gyrokinetic RHS is reduced to a linear drive plus a quadratic nonlinearity.)"""
from dataclasses import dataclass
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class LinearCache(NamedTuple):
    ky: jnp.ndarray
    kx: jnp.ndarray


class LinearParams(NamedTuple):
    nu: jnp.ndarray
    drive: jnp.ndarray


@dataclass(frozen=True)
class TermConfig:
    nonlinear: float = 1.0


def nonlinear_rhs_cached(G, cache, params, term_cfg, compressed_real_fft=False, laguerre_mode="grid"):
    phi = jnp.sum(G, axis=0)
    linear = (params.drive * 1j * cache.ky[None, :] - params.nu) * G
    nonlinear = term_cfg.nonlinear * 1j * cache.kx[None, :] * phi[None, :] * G * 1e-2
    return linear + nonlinear, phi


def _nonlinear_rhs_scan(G, cache, params, term_cfg, compressed_real_fft, laguerre_mode):
    return nonlinear_rhs_cached(G, cache, params, term_cfg,
                                compressed_real_fft=compressed_real_fft, laguerre_mode=laguerre_mode)


@partial(jax.jit, static_argnames=("rhs_fn", "rhs_static_args", "steps", "method", "return_fields"))
def integrate_nonlinear_scan(rhs_fn, G0, dt, steps, *, method="rk4", return_fields=True,
                             rhs_args=(), rhs_static_args=()):
    dt_val = jnp.asarray(dt, dtype=jnp.float32)

    def bound_rhs(state):
        return rhs_fn(state, *rhs_args, *rhs_static_args)

    def step(G, idx):
        k1, _ = bound_rhs(G)
        k2, _ = bound_rhs(G + 0.5 * dt_val * k1)
        k3, _ = bound_rhs(G + 0.5 * dt_val * k2)
        k4, _ = bound_rhs(G + dt_val * k3)
        G_new = G + dt_val / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return G_new, bound_rhs(G_new)[1]

    G_final, fields_t = jax.lax.scan(step, G0, jnp.arange(steps))
    return (G_final, fields_t) if return_fields else G_final


def integrate_cached_explicit_scan(G0, dt, steps, *, method, rhs_fn, scan_fn, return_fields=True,
                                   rhs_args=(), rhs_static_args=()):
    return scan_fn(rhs_fn, G0, dt, steps, method=method, return_fields=return_fields,
                   rhs_args=rhs_args, rhs_static_args=rhs_static_args)


def integrate_nonlinear_cached(G0, cache, params, dt, steps, method="rk4", terms=None,
                               compressed_real_fft=False, laguerre_mode="grid", return_fields=True):
    term_cfg = terms or TermConfig()
    return integrate_cached_explicit_scan(G0, dt, steps, method=method, rhs_fn=_nonlinear_rhs_scan,
                                          scan_fn=integrate_nonlinear_scan, return_fields=return_fields,
                                          rhs_args=(cache, params),
                                          rhs_static_args=(term_cfg, compressed_real_fft, laguerre_mode))


if __name__ == "__main__":
    cache = LinearCache(ky=jnp.linspace(0.1, 1.0, 8), kx=jnp.linspace(-1.0, 1.0, 8))
    params = LinearParams(nu=jnp.float32(0.05), drive=jnp.float32(0.3))
    G = jnp.ones((4, 8), dtype=jnp.complex64) * 0.1
    for chunk in range(3):
        G, phi_t = integrate_nonlinear_cached(G, cache, params, 0.05, 20)
        print(chunk, round(float(jnp.abs(G).sum()), 5), round(float(jnp.abs(phi_t[-1]).sum()), 5))
