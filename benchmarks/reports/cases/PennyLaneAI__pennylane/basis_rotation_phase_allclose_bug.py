# source: https://github.com/PennyLaneAI/pennylane/pull/8608
# category: A
# expect: raises
# via: jit-decorator, method, helper
# sink: python-if
"""BasisRotation adjusts a real unitary's determinant and adds a phase shift only when the
adjustment angle is not close to zero; in a jitted circuit the unitary is traced, so the angle
is a tracer and the `allclose` test needs a concrete bool."""
import jax
import jax.numpy as jnp
import numpy as np


def is_abstract(x):
    return isinstance(x, jax.core.Tracer)


def _adjust_determinant(matrix):
    det = jnp.linalg.det(matrix)
    if is_abstract(matrix) or det < 0:
        mat = matrix.at[:, 0].set(-matrix[:, 0])
        return np.pi * (1 - jnp.real(det)) / 2, mat
    return np.array(0.0), matrix


class PhaseShift:
    def __init__(self, phi, wires):
        self.phi, self.wires = phi, wires


class SingleExcitation(PhaseShift):
    pass


class BasisRotation:
    @staticmethod
    def compute_decomposition(wires, unitary_matrix):
        op_list = []
        angle, unitary_matrix = _adjust_determinant(unitary_matrix)
        if not jnp.allclose(angle, 0.0):  # <-- bug
            op_list.append(PhaseShift(angle, wires=wires[0]))
        theta = jnp.arctan2(unitary_matrix[0, 1], unitary_matrix[0, 0])
        op_list.append(SingleExcitation(2 * theta, wires=[wires[0], wires[1]]))
        return op_list


@jax.jit
def circuit(unitary_matrix):
    ops = BasisRotation.compute_decomposition([0, 1], unitary_matrix)
    return ops[-1].phi


if __name__ == "__main__":
    c, s = np.cos(0.3), np.sin(0.3)
    print(circuit(jnp.array([[c, s], [s, -c]])))
