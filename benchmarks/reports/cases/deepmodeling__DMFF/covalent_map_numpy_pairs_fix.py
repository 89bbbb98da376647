# source: https://github.com/deepmodeling/DMFF/commit/2c434d7dec02869a58e5887f30e90effdb9589d7
# category: A
# expect: ok
# via: jit-call, grad, factory-closure, vmap, dict-of-arrays
# sink: numpy-call
"""build_covalent_map returned a plain NumPy matrix, and the pair potential made by
generate_pairwise_interaction looked it up with the neighbour pairs; once the fitting script
jitted the loss, `covalent_map[pairs[:, 0], pairs[:, 1]]` fed tracers to NumPy."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import vmap


def build_covalent_map(bonds, n_atoms, max_neighbor):
    covalent_map = np.zeros((n_atoms, n_atoms), dtype=int)
    for a1, a2 in bonds:
        covalent_map[a1, a2] = 1
        covalent_map[a2, a1] = 1
    for n_curr in range(1, max_neighbor):
        for i in range(n_atoms):
            j_list = np.where(np.logical_and(covalent_map[i] <= n_curr, covalent_map[i] > 0))[0]
            for j in j_list:
                for k in np.where(covalent_map[j] == 1)[0]:
                    if k != i and k not in j_list:
                        covalent_map[i, k] = n_curr + 1
                        covalent_map[k, i] = n_curr + 1
    return jnp.array(covalent_map)


@partial(vmap, in_axes=(None, 0), out_axes=0)
def distribute_scalar(params, index):
    return params[index]


@vmap
def slater_sr_kernel(dr, m, ai, aj, bi, bj):
    b = jnp.sqrt(bi * bj)
    br = b * dr
    return ai * aj * (br**2 / 3 + br + 1) * jnp.exp(-br) * m


def generate_pairwise_interaction(pair_int_kernel, covalent_map, static_args):
    def pair_int(positions, box, pairs, mScales, *atomic_params):
        ri = positions[pairs[:, 0]]
        rj = positions[pairs[:, 1]]
        nbonds = covalent_map[pairs[:, 0], pairs[:, 1]]
        mscales = distribute_scalar(mScales, nbonds - 1)
        dr = jnp.linalg.norm(ri - rj, axis=1)
        pair_params = []
        for param in atomic_params:
            pair_params.append(distribute_scalar(param, pairs[:, 0]))
            pair_params.append(distribute_scalar(param, pairs[:, 1]))
        return jnp.sum(pair_int_kernel(dr, mscales, *pair_params))
    return pair_int


if __name__ == "__main__":
    n_atoms = 6
    covalent_map = build_covalent_map([(0, 1), (1, 2), (3, 4), (4, 5)], n_atoms, 6)
    pot_fn_sr = generate_pairwise_interaction(slater_sr_kernel, covalent_map, static_args={})

    def potential_fn(positions, box, pairs, params):
        return pot_fn_sr(positions, box, pairs, params["mScales"], params["A"], params["B"])

    positions = jnp.array(np.random.RandomState(0).rand(n_atoms, 3) * 4.0)
    box = jnp.eye(3) * 20.0
    pairs = jnp.array([[i, j] for i in range(n_atoms) for j in range(i + 1, n_atoms)])
    params = {"mScales": jnp.array([0.0, 0.0, 0.5, 1.0, 1.0, 1.0, 1.0]),
              "A": jnp.ones(n_atoms), "B": jnp.full(n_atoms, 3.0)}

    def loss(params, positions, pairs):
        return potential_fn(positions, box, pairs, params) ** 2

    grad_fn = jax.jit(jax.grad(loss))
    print(grad_fn(params, positions, pairs)["A"])
