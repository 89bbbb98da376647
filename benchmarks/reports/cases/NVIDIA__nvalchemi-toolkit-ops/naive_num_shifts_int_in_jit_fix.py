# source: https://github.com/NVIDIA/nvalchemi-toolkit-ops/pull/72
# category: A
# expect: ok
# via: jit-decorator, factory-closure, helper
# sink: int-float-bool
"""The periodic-shift counts are computed once with `compute_naive_num_shifts` outside `jax.jit`
and passed to the neighbor list, so the jitted closure never converts a traced count to `int`."""
import itertools

import jax
import jax.numpy as jnp


def compute_naive_num_shifts(cell, cutoff, pbc):
    """Number of periodic images per dimension; must be called outside `jax.jit`."""
    inv_lengths = jnp.linalg.norm(jnp.linalg.inv(cell), axis=0)
    shifts = jnp.where(pbc, jnp.ceil(cutoff * inv_lengths), 0)
    max_shifts_i64 = shifts.astype(jnp.int32)
    max_shifts_per_system = int(max_shifts_i64.max())
    shift_range_per_dimension = tuple(int(s) for s in jax.device_get(max_shifts_i64))
    return shift_range_per_dimension, max_shifts_per_system


def naive_neighbor_list(positions, cutoff, cell=None, pbc=None, max_neighbors=8,
                        shift_range_per_dimension=None, max_shifts_per_system=None):
    if shift_range_per_dimension is None or max_shifts_per_system is None:
        shift_range_per_dimension, max_shifts_per_system = compute_naive_num_shifts(cell, cutoff, pbc)
    ranges = [range(-r, r + 1) for r in shift_range_per_dimension]
    shifts = jnp.array(list(itertools.product(*ranges)), dtype=positions.dtype) @ cell
    diff = positions[None, :, None, :] - positions[:, None, None, :] + shifts[None, None, :, :]
    dist = jnp.linalg.norm(diff, axis=-1)
    within = (dist < cutoff) & (dist > 0)
    num_neighbors = within.sum(axis=(1, 2))
    neighbor_matrix = jnp.argsort(~within.any(axis=2), axis=1)[:, :max_neighbors]
    return neighbor_matrix, num_neighbors


if __name__ == "__main__":
    cell = jnp.eye(3) * 4.0
    pbc = jnp.array([True, True, False])
    cutoff = 2.5
    positions = jax.random.uniform(jax.random.PRNGKey(0), (6, 3)) * 4.0

    shift_range_per_dimension, max_shifts_per_system = compute_naive_num_shifts(cell, cutoff, pbc)

    @jax.jit
    def step(positions):
        return naive_neighbor_list(positions, cutoff, cell=cell, pbc=pbc,
                                   shift_range_per_dimension=shift_range_per_dimension,
                                   max_shifts_per_system=max_shifts_per_system)

    for _ in range(2):
        neighbor_matrix, num_neighbors = step(positions)
    print(num_neighbors)
