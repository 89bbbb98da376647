# source: https://github.com/sososquirrel/SAMJax/commit/70bb20ba8d041647ca72afda69e9ff1593457959
# category: B
# expect: raises
# via: jit-decorator, static-argnums, helper, namedtuple
# sink: static-array
"""jsam's scalar advection kernel takes the MACHO direction ordering as a static argument, and
its wrapper derives that ordering from the model state's step counter; the counter is a JAX
array, so `(nstep - 1) % 6` is an array too and jit cannot hash it as a static argument."""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class ModelState(NamedTuple):
    TABS: jax.Array
    QV: jax.Array
    U: jax.Array
    V: jax.Array
    W: jax.Array
    nstep: jax.Array


def _flux_x(phi, U, dt, dx):
    return phi - dt / dx * U * (phi - jnp.roll(phi, 1, axis=2))


def _flux_y(phi, V, dt, dy):
    return phi - dt / dy * V * (phi - jnp.roll(phi, 1, axis=1))


def _flux_z(phi, W, dt, dz):
    return phi - dt / dz * W * (phi - jnp.roll(phi, 1, axis=0))


@jax.jit(static_argnums=(6,))
def _advect_scalar_jit(phi, U, V, W, metric, dt, macho_order=0):
    dx, dy, dz = metric["dx_lon"], metric["dy_lat"], metric["dz"]
    if macho_order == 0:
        phi = _flux_y(_flux_x(_flux_z(phi, W, dt, dz), U, dt, dx), V, dt, dy)
    elif macho_order == 1:
        phi = _flux_x(_flux_z(_flux_y(phi, V, dt, dy), W, dt, dz), U, dt, dx)
    elif macho_order == 2:
        phi = _flux_z(_flux_y(_flux_x(phi, U, dt, dx), V, dt, dy), W, dt, dz)
    elif macho_order == 3:
        phi = _flux_x(_flux_y(_flux_z(phi, W, dt, dz), V, dt, dy), U, dt, dx)
    elif macho_order == 4:
        phi = _flux_y(_flux_z(_flux_x(phi, U, dt, dx), W, dt, dz), V, dt, dy)
    else:
        phi = _flux_z(_flux_x(_flux_y(phi, V, dt, dy), U, dt, dx), W, dt, dz)
    return phi


def advect_scalar(phi, U, V, W, metric, dt, nstep=0):
    macho_order = (nstep - 1) % 6
    return _advect_scalar_jit(phi, U, V, W, metric, dt, macho_order)  # <-- bug


def advance_scalars(state, metric, dt):
    nstep = state.nstep

    def _adv(phi):
        return advect_scalar(phi, state.U, state.V, state.W, metric, dt, nstep=nstep)

    return state._replace(TABS=_adv(state.TABS), QV=_adv(state.QV), nstep=state.nstep + 1)


if __name__ == "__main__":
    nz, ny, nx = 4, 6, 8
    metric = {"dx_lon": 1000.0, "dy_lat": 1000.0, "dz": 100.0}
    state = ModelState(
        TABS=jnp.linspace(280.0, 300.0, nz * ny * nx).reshape(nz, ny, nx),
        QV=jnp.full((nz, ny, nx), 0.01, dtype=jnp.float32),
        U=jnp.full((nz, ny, nx), 5.0, dtype=jnp.float32),
        V=jnp.full((nz, ny, nx), 2.0, dtype=jnp.float32),
        W=jnp.full((nz, ny, nx), 0.1, dtype=jnp.float32),
        nstep=jnp.asarray(1),
    )
    state = advance_scalars(state, metric, dt=10.0)
    print(int(state.nstep), float(state.TABS.mean()))
