# source: https://github.com/atomicarchitects/nequix/pull/22
# category: R
# expect: ok
# via: method, helper, jit-call, host-loop
# sink: changing-shape
"""The calculator pads each structure's graph to `n_nodes + 1` nodes and `1.1 * n_edges` edges
before calling its jitted energy/forces function, so relaxing a database of materials compiles
again for nearly every new (nodes, edges) combination.  The fix pads nodes to the next multiple
of 8 and edges to the next multiple of 64, so structures of similar size share one compilation."""
import math

import jax
import jax.numpy as jnp
import numpy as np


def neighbor_list(positions, cutoff):
    d = np.linalg.norm(positions[:, None] - positions[None, :], axis=-1)
    senders, receivers = np.nonzero((d < cutoff) & (d > 0))
    return senders, receivers


def energy_fn(params, positions, senders, receivers, node_mask, edge_mask):
    r = jnp.linalg.norm(positions[senders] - positions[receivers] + 1e-9, axis=-1)
    e_edge = params["a"] * jnp.exp(-params["b"] * r) * edge_mask
    return jnp.sum(e_edge) + 0.0 * jnp.sum(node_mask)


class NequixCalculator:
    def __init__(self, params, cutoff=2.5):
        self.params = params
        self.cutoff = cutoff
        self._energy_and_forces = jax.jit(jax.value_and_grad(energy_fn, argnums=1))

    def _pad_sizes(self, n_nodes, n_edges):
        return 8 * math.ceil((n_nodes + 1) / 8), 64 * math.ceil((n_edges + 1) / 64)

    def calculate(self, positions):
        senders, receivers = neighbor_list(positions, self.cutoff)
        n_nodes, n_edges = len(positions), len(senders)
        pad_nodes, pad_edges = self._pad_sizes(n_nodes, n_edges)
        pos = np.zeros((pad_nodes, 3), np.float32)
        pos[:n_nodes] = positions
        s = np.full(pad_edges, n_nodes, np.int32)
        r = np.full(pad_edges, n_nodes, np.int32)
        s[:n_edges], r[:n_edges] = senders, receivers
        node_mask = np.arange(pad_nodes) < n_nodes
        edge_mask = np.arange(pad_edges) < n_edges
        energy, grad = self._energy_and_forces(self.params, pos, s, r, node_mask, edge_mask)
        return float(energy), -np.asarray(grad[:n_nodes])


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    calc = NequixCalculator({"a": jnp.float32(1.0), "b": jnp.float32(0.5)})
    for n_atoms in (5, 6, 7):
        positions = rng.uniform(0.0, 3.0, size=(n_atoms, 3)).astype(np.float32)
        energy, forces = calc.calculate(positions)
        print(n_atoms, round(energy, 4), forces.shape)
