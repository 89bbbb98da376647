# source: https://github.com/PennyLaneAI/pennylane/pull/6308
# category: A
# expect: raises
# via: jit-call, method, class-attribute
# sink: python-if
"""QutritBasisStatePreparation checked that every entry of the basis state is 0, 1 or 2 with
`bit not in [0, 1, 2]`, and decomposed into `range(state)` shifts; a jitted circuit passes the
basis state as a tracer, so the membership test needs a concrete bool."""
import jax
import jax.numpy as jnp
import numpy as np


class TShift:
    def __init__(self, wires):
        self.wires = wires

    def matrix(self):
        return jnp.array([[0, 0, 1], [1, 0, 0], [0, 1, 0]], dtype=jnp.complex64)


class QutritBasisStatePreparation:
    def __init__(self, basis_state, wires):
        shape = jnp.shape(basis_state)
        if len(shape) != 1 or shape[0] != len(wires):
            raise ValueError(f"Basis states must be of length {len(wires)}")
        if any(bit not in [0, 1, 2] for bit in basis_state):  # <-- bug
            raise ValueError(f"Basis states must only consist of 0s, 1s, and 2s; state is {basis_state}")
        self.data = (basis_state,)
        self.wires = wires

    def decomposition(self):
        return self.compute_decomposition(self.data[0], self.wires)

    @staticmethod
    def compute_decomposition(basis_state, wires):
        op_list = []
        for wire, state in zip(wires, basis_state):
            for _ in range(0, state):
                op_list.append(TShift(wire))
        return op_list


def circuit(state):
    psi = jnp.array([1, 0, 0], dtype=jnp.complex64)
    for op in QutritBasisStatePreparation(state, [0]).decomposition():
        psi = op.matrix() @ psi
    return psi


if __name__ == "__main__":
    circuit = jax.jit(circuit)
    print(circuit(jnp.array([2])))
