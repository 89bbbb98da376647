# source: https://github.com/ACEsuit/mace/issues/1590
# category: R
# expect: recompiles
# via: method, helper, jit-call, host-loop
# sink: changing-shape
"""The JAX calculator hands each neighbor-list rebuild's raw graph to its jitted energy
function, so during an MD run every new (n_nodes, n_edges) shape compiles XLA again mid
trajectory.  Padding every graph to one static bucket, with padding edges placed at `2 * r_max`
where the polynomial cutoff is exactly zero, keeps one trace and the same energies."""
import jax
import jax.numpy as jnp
import numpy as np

R_MAX = 1.6


def polynomial_cutoff(r):
    x = r / R_MAX
    envelope = 1.0 - 10.0 * x**3 + 15.0 * x**4 - 6.0 * x**5
    return envelope * (x < 1.0)


def energy_fn(positions, senders, receivers, shifts):
    vec = positions[receivers] - positions[senders] + shifts
    r = jnp.sqrt(jnp.sum(vec**2, axis=-1) + 1e-12)
    return 0.5 * jnp.sum(polynomial_cutoff(r) * (1.0 / r - 0.5))


class MACEJaxCalculator:
    def __init__(self):
        self._forces = jax.jit(jax.grad(energy_fn))

    def build_graph(self, positions):
        d = np.linalg.norm(positions[:, None] - positions[None, :], axis=-1)
        senders, receivers = np.nonzero((d < R_MAX) & (d > 0))
        shifts = np.zeros((len(senders), 3), np.float32)
        return positions, senders.astype(np.int32), receivers.astype(np.int32), shifts

    def get_forces(self, positions):
        graph = self.build_graph(positions)
        return -np.asarray(self._forces(*graph))[: len(positions)]  # <-- bug


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    calc = MACEJaxCalculator()
    positions = rng.uniform(0.0, 2.5, size=(10, 3)).astype(np.float32)
    velocities = rng.normal(0.0, 20.0, size=positions.shape).astype(np.float32)
    for step in range(3):  # one neighbor-list rebuild per step
        forces = calc.get_forces(positions)
        velocities += 0.01 * forces
        positions = positions + 0.01 * velocities
        print(step, float(np.abs(forces).sum()))
