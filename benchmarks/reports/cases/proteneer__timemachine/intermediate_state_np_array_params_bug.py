# source: https://github.com/proteneer/timemachine/pull/782
# category: A
# expect: raises
# via: method, factory-closure, jit-call, vmap, helper
# sink: numpy-call
"""`SingleTopologyV3.setup_intermediate_state(lam)` interpolates the bonded parameters between
the two end states, and `VacuumSystem.get_U_fn` wraps them with `np.array(...)`; jitting or
vmapping `U(x, lam)` makes the interpolated parameters tracers, and `np.array` fails with a
tracer array conversion error. The fix builds the parameter arrays with `jnp.array`."""
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class HarmonicBond(NamedTuple):
    idxs: np.ndarray
    params: jax.Array


def harmonic_bond(conf, params, idxs):
    ci, cj = conf[idxs[:, 0]], conf[idxs[:, 1]]
    dij = jnp.sqrt(jnp.sum((ci - cj) ** 2, -1))
    kbs, r0s = params[:, 0], params[:, 1]
    return jnp.sum(kbs / 2 * (dij - r0s) ** 2)


class VacuumSystem:
    def __init__(self, bond):
        self.bond = bond

    def get_U_fn(self):
        bond_params = np.array(self.bond.params)  # <-- bug
        bond_idxs = self.bond.idxs

        def U_fn(x):
            return harmonic_bond(x, bond_params, bond_idxs)

        return U_fn


class SingleTopologyV3:
    def __init__(self, idxs, src_params, dst_params):
        self.src_system = VacuumSystem(HarmonicBond(idxs, src_params))
        self.dst_system = VacuumSystem(HarmonicBond(idxs, dst_params))

    def setup_intermediate_state(self, lamb):
        src_bond, dst_bond = self.src_system.bond, self.dst_system.bond
        params = (1 - lamb) * src_bond.params + lamb * dst_bond.params
        return VacuumSystem(HarmonicBond(src_bond.idxs, params))


if __name__ == "__main__":
    idxs = np.array([[0, 1], [1, 2], [2, 3]])
    st = SingleTopologyV3(idxs, jnp.array([[100.0, 0.1]] * 3), jnp.array([[200.0, 0.15]] * 3))
    conf = jnp.array(np.random.default_rng(0).uniform(size=(4, 3)))

    def U(x, lam):
        return st.setup_intermediate_state(lam).get_U_fn()(x)

    print(jax.jit(U)(conf, 0.1))
    confs = jnp.array([conf for _ in range(10)])
    lambdas = jnp.linspace(0, 1, 10)
    print(jax.vmap(U)(confs, lambdas))
