# source: https://github.com/ignaciomagana/darksirens/blob/9cf876a7504f728d4151aeed35d969a87605783d/tests/test_catalog_prior_distance_table.py
# category: C
# expect: raises
# via: jit-decorator, jit-call, vmap, helper, wrapper
# sink: closure-global
"""`log_catalog_prior` is a plain `@jit` that reaches the comoving-distance table through the
module global that `threads_distance_table` swaps for the outer jit's traced table; the first
bright-siren call caches its jaxpr with that tracer inside, and the call for a second `z` shape
replays it from the dead trace and raises UnexpectedTracerError."""
import contextlib

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)

zs = jnp.linspace(0.0, 2.0, 64)
rs = jnp.asarray(np.cumsum(np.full(64, 2.0 / 63)) * 4200.0)  # comoving distance table [Mpc]


@contextlib.contextmanager
def threads_distance_table(distance_table):
    """Route the module-level table through the enclosing jit as a parameter."""
    global rs
    saved = rs
    rs = distance_table
    try:
        yield
    finally:
        rs = saved


def r_of_z(z):
    return jnp.interp(z, zs, rs)  # <-- bug


def dV_of_z(z):
    r = r_of_z(z)
    dr_dz = jnp.interp(z, zs, jnp.gradient(rs, zs))
    return 4.0 * jnp.pi * r**2 * dr_dz


def log_galaxy_measure_grid(z, pix, apix):
    return jnp.log(dV_of_z(z) * apix) + 0.0 * pix


@jax.jit
def log_catalog_prior(z, pix, apix):
    return log_galaxy_measure_grid(z, pix, apix)


log_catalog_prior_vmap = jax.jit(jax.vmap(log_catalog_prior, in_axes=(0, 0, None)))


@jax.jit
def _bright_siren_boundary(z, pix, apix, distance_table):
    with threads_distance_table(distance_table):
        return log_catalog_prior_vmap(z, pix, apix)


def _log_prior_bright_sirens(z, pix, apix):
    return _bright_siren_boundary(z, pix, apix, rs)  # <-- bug


if __name__ == "__main__":
    apix = 4 * np.pi / 48
    # shape (1,) first, then (2,) in the same process
    one = _log_prior_bright_sirens(jnp.full((1,), 0.2), jnp.arange(1, dtype=jnp.int32), apix)
    print("n=1:", one)
    two = _log_prior_bright_sirens(jnp.full((2,), 0.2), jnp.arange(2, dtype=jnp.int32), apix)
    print("n=2:", two)
