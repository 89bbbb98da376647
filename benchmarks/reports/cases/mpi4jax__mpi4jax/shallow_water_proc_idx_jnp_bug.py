# source: https://github.com/mpi4jax/mpi4jax/commit/5482f21fd1b3dfc8f9b6747ce1356dd15a44f99e
# category: A
# expect: raises
# via: jit-decorator, helper
# sink: python-if
"""The shallow-water example computes the process grid position with `jnp.unravel_index` at
module level; the jitted model step then decides its halo-exchange neighbours with
`if proc_idx[0] > 0`, and indexing the global jax array inside the trace yields a tracer, so
the Python `if` fails with a concretization error. The fix computes `proc_idx` with
`np.unravel_index`."""
import jax
import jax.numpy as jnp
import numpy as np

mpi_rank, mpi_size = 3, 4  # reduced: one process of a 2 x 2 layout
PERIODIC_BOUNDARY_X = True

nproc_y = min(mpi_size, 2)
nproc_x = mpi_size // nproc_y

proc_idx = jnp.unravel_index(mpi_rank, (nproc_y, nproc_x))


def enforce_boundaries(arr, grid):
    assert grid in ("h", "u", "v")
    proc_neighbors = {
        "south": (proc_idx[0] - 1, proc_idx[1]) if proc_idx[0] > 0 else None,  # <-- bug
        "west": (proc_idx[0], proc_idx[1] - 1) if proc_idx[1] > 0 else None,
        "north": (proc_idx[0] + 1, proc_idx[1]) if proc_idx[0] < nproc_y - 1 else None,
        "east": (proc_idx[0], proc_idx[1] + 1) if proc_idx[1] < nproc_x - 1 else None,
    }
    if PERIODIC_BOUNDARY_X:
        if proc_idx[1] == 0:
            proc_neighbors["west"] = (proc_idx[0], nproc_x - 1)
        if proc_idx[1] == nproc_x - 1:
            proc_neighbors["east"] = (proc_idx[0], 0)
    # reduced exchange: without a neighbour, copy the interior edge into the halo
    if proc_neighbors["south"] is None:
        arr = arr.at[0, :].set(arr[1, :])
    if proc_neighbors["north"] is None:
        arr = arr.at[-1, :].set(arr[-2, :])
    return arr


@jax.jit
def shallow_water_step(h):
    h = h - 0.1 * (jnp.roll(h, 1, 0) + jnp.roll(h, -1, 0) - 2 * h)
    return enforce_boundaries(h, "h")


if __name__ == "__main__":
    h = jnp.arange(6 * 8, dtype=jnp.float32).reshape(6, 8)
    for _ in range(3):
        h = shallow_water_step(h)
    print(h.sum())
