# source: https://github.com/ignaciomagana/darksirens/blob/9cf876a7504f728d4151aeed35d969a87605783d/tests/test_catalog_prior_distance_table.py
# category: C
# expect: ok
# via: jit-decorator, jit-call, vmap, helper, wrapper
# sink: closure-global
"""The catalog-prior jits take the comoving-distance table as a parameter and pass it down to
`r_of_z`, so no jaxpr closes over the traced table of the enclosing boundary and every `z` shape
runs."""
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


def r_of_z(z, distance_table):
    return jnp.interp(z, zs, distance_table)


def dV_of_z(z, distance_table):
    r = r_of_z(z, distance_table)
    dr_dz = jnp.interp(z, zs, jnp.gradient(distance_table, zs))
    return 4.0 * jnp.pi * r**2 * dr_dz


def log_galaxy_measure_grid(z, pix, apix, distance_table):
    return jnp.log(dV_of_z(z, distance_table) * apix) + 0.0 * pix


@jax.jit
def log_catalog_prior(z, pix, apix, distance_table):
    return log_galaxy_measure_grid(z, pix, apix, distance_table)


log_catalog_prior_vmap = jax.jit(jax.vmap(log_catalog_prior, in_axes=(0, 0, None, None)))


@jax.jit
def _bright_siren_boundary(z, pix, apix, distance_table):
    with threads_distance_table(distance_table):
        return log_catalog_prior_vmap(z, pix, apix, distance_table)


def _log_prior_bright_sirens(z, pix, apix):
    return _bright_siren_boundary(z, pix, apix, rs)


if __name__ == "__main__":
    apix = 4 * np.pi / 48
    # shape (1,) first, then (2,) in the same process
    one = _log_prior_bright_sirens(jnp.full((1,), 0.2), jnp.arange(1, dtype=jnp.int32), apix)
    print("n=1:", one)
    two = _log_prior_bright_sirens(jnp.full((2,), 0.2), jnp.arange(2, dtype=jnp.int32), apix)
    print("n=2:", two)
