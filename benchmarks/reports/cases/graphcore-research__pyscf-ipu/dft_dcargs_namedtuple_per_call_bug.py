# source: https://github.com/graphcore-research/pyscf-ipu/commit/e51a92705c18e14d9a262427dbe037dbf011543d
# category: R
# expect: recompiles
# via: jit-call, static-argnums, namedtuple, host-loop
# sink: changing-static
"""pyscf-ipu's DFT driver packed its options into a `namedtuple` class it created inside every
call and passed the instance to the jitted SCF loop as a static argument; each new class makes
the static argument new to JAX, so every molecule compiled the SCF loop again.  The fix defines
the namedtuple type once, at module level."""
from collections import namedtuple
from types import SimpleNamespace

import jax
import jax.numpy as jnp
import numpy as np

_do_compute_static_argnums = (3, 4)


def _do_compute(density_matrix, kinetic, overlap, mf_diis_space, args):
    energies = []
    for _ in range(args.its):
        fock = kinetic + args.density_mixing * density_matrix
        eigvals, eigvecs = jnp.linalg.eigh(fock + overlap)
        occ = eigvecs[:, : mf_diis_space // 3]
        density_matrix = 2.0 * occ @ occ.T
        energies.append(jnp.sum(density_matrix * (kinetic + fock)) / 2)
    return jnp.stack(energies), density_matrix


def density_functional_theory(atom_positions, args, mf_diis_space=9):
    n = atom_positions.shape[0]
    dist = jnp.linalg.norm(atom_positions[:, None] - atom_positions[None], axis=-1)
    kinetic = -jnp.exp(-dist)
    overlap = 0.1 * jnp.eye(n)
    density_matrix = jnp.eye(n) / n
    do_compute_jit = jax.jit(_do_compute, static_argnums=_do_compute_static_argnums)
    dcargs_names = ("its", "backend", "density_mixing")
    dcargs = namedtuple("dcargs", dcargs_names)(*(args.__dict__[a] for a in dcargs_names))
    energies, _ = do_compute_jit(density_matrix, kinetic, overlap, mf_diis_space, dcargs)  # <-- bug
    return energies[-1]


if __name__ == "__main__":
    args = SimpleNamespace(its=5, backend="cpu", density_mixing=0.5)
    rng = np.random.default_rng(0)
    for conformer in range(3):  # same molecule, new conformers
        positions = jnp.asarray(rng.normal(size=(6, 3)), dtype=jnp.float32)
        print(conformer, round(float(density_functional_theory(positions, args)), 4))
