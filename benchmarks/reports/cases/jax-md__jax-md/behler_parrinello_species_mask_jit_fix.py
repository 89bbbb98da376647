# source: https://github.com/jax-md/jax-md/commit/95365de3cff1c609dcc911c5ad916603e1eb1670
# category: A
# expect: ok
# via: jit-call, factory-closure, vmap
# sink: shape-from-value
"""The Behler-Parrinello radial symmetry functions convert the species to a NumPy array when they
are built, so the unique species and the `R[species == atom_type]` masks stay concrete under jit."""
from functools import partial

import jax.numpy as np
import numpy as onp
from jax import jit, random, vmap


def distance(Ra, Rb):
    return np.sqrt(np.sum((Ra - Rb) ** 2) + 1e-12)


def map_product(metric):
    return vmap(vmap(metric, (0, None), 0), (None, 0), 0)


def _behler_parrinello_cutoff_fn(dr, cutoff_distance=8.0):
    return np.where(dr < cutoff_distance, 0.5 * (np.cos(np.pi * dr / cutoff_distance) + 1), 0.0)


def radial_symmetry_functions(metric, species, etas, cutoff_distance):
    species = onp.array(species)

    def compute_fun(R, **kwargs):
        _metric = partial(metric, **kwargs)
        _metric = map_product(_metric)
        radial_fn = lambda eta, dr: (np.exp(-eta * dr**2) *
                                     _behler_parrinello_cutoff_fn(dr, cutoff_distance))

        def return_radial(atom_type):
            R_neigh = R[species == atom_type, :]
            dr = _metric(R, R_neigh)
            radial = vmap(radial_fn, (0, None))(etas, dr)
            return np.sum(radial, axis=1).T

        return np.hstack([return_radial(atom_type) for atom_type in onp.unique(species)])

    return compute_fun


if __name__ == "__main__":
    R = random.uniform(random.PRNGKey(0), (6, 3)) * 3.0
    species = np.array([0, 1, 0, 1, 1, 0])
    etas = np.array([0.5, 1.0, 2.0])
    gr = radial_symmetry_functions(distance, species, etas, cutoff_distance=4.0)
    print(gr(R).shape)
    print(jit(gr)(R))
