# source: https://github.com/PennyLaneAI/pennylane/pull/6308
# category: A
# expect: ok
# via: jit-call, method, class-attribute
# sink: python-if
"""QutritBasisStatePreparation skips the 0/1/2 membership check when the basis state is abstract
and then decomposes into subspace rotations whose angles are arithmetic in the state, so a
jitted circuit never needs the traced state as a Python value."""
import jax
import jax.numpy as jnp
import numpy as np


def is_abstract(x):
    return isinstance(x, jax.core.Tracer)


class TShift:
    def __init__(self, wires):
        self.wires = wires

    def matrix(self):
        return jnp.array([[0, 0, 1], [1, 0, 0], [0, 1, 0]], dtype=jnp.complex64)


class TRY:
    def __init__(self, phi, wires, subspace):
        self.phi, self.wires, self.subspace = phi, wires, subspace

    def matrix(self):
        (i, j), c, s = self.subspace, jnp.cos(self.phi / 2), jnp.sin(self.phi / 2)
        m = jnp.eye(3, dtype=jnp.complex64)
        return m.at[i, i].set(c).at[i, j].set(-s).at[j, i].set(s).at[j, j].set(c)


class TRZ(TRY):
    def matrix(self):
        (i, j) = self.subspace
        m = jnp.eye(3, dtype=jnp.complex64)
        return m.at[i, i].set(jnp.exp(-0.5j * self.phi)).at[j, j].set(jnp.exp(0.5j * self.phi))


class QutritBasisStatePreparation:
    def __init__(self, basis_state, wires):
        shape = jnp.shape(basis_state)
        if len(shape) != 1 or shape[0] != len(wires):
            raise ValueError(f"Basis states must be of length {len(wires)}")
        if not is_abstract(basis_state):
            if any(bit not in [0, 1, 2] for bit in basis_state):
                raise ValueError(f"Basis states must only consist of 0s, 1s, and 2s; state is {basis_state}")
        self.data = (basis_state,)
        self.wires = wires

    def decomposition(self):
        return self.compute_decomposition(self.data[0], self.wires)

    @staticmethod
    def compute_decomposition(basis_state, wires):
        op_list = []
        if is_abstract(basis_state):
            for wire, state in zip(wires, basis_state):
                op_list.extend([
                    TRY(state * (2 - state) * np.pi, wires=wire, subspace=(0, 1)),
                    TRY(state * (1 - state) * np.pi / 2, wires=wire, subspace=(0, 2)),
                    TRZ((-2 * state + 3) * state * np.pi, wires=wire, subspace=(0, 2)),
                    TRY(state * (2 - state) * np.pi, wires=wire, subspace=(0, 2)),
                    TRY(state * (1 - state) * np.pi / 2, wires=wire, subspace=(0, 1)),
                    TRZ(-(7 * state - 10) * state * np.pi, wires=wire, subspace=(0, 2)),
                ])
            return op_list
        for wire, state in zip(wires, basis_state):
            for _ in range(state):
                op_list.append(TShift(wire))
        return op_list


def circuit(state):
    psi = jnp.array([1, 0, 0], dtype=jnp.complex64)
    for op in QutritBasisStatePreparation(state, [0]).decomposition():
        psi = op.matrix() @ psi
    return psi


if __name__ == "__main__":
    circuit = jax.jit(circuit)
    print(jnp.round(jnp.abs(circuit(jnp.array([2]))), 3))
