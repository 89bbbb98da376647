# source: https://github.com/PennyLaneAI/pennylane/pull/6642
# category: A
# expect: ok
# via: jit-decorator, method, class-attribute, helper
# sink: python-if
"""The Hermitian observable keeps its shape checks but no longer checks hermiticity with
`allclose`, so a matrix captured as a constant by a jitted circuit no longer needs a concrete
comparison result."""
import jax
import jax.numpy as jnp


def is_abstract(x):
    return isinstance(x, jax.core.Tracer)


class Hermitian:
    _num_basis_states = 2

    def __init__(self, A, wires):
        if not is_abstract(A):
            expected_mx_shape = self._num_basis_states ** len(wires)
            Hermitian._validate_input(A, expected_mx_shape)
        self.data = (A,)
        self.wires = wires

    @staticmethod
    def _validate_input(A, expected_mx_shape=None):
        """Validate the input matrix."""
        if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
            raise ValueError("Observable must be a square matrix.")
        if expected_mx_shape is not None and A.shape[0] != expected_mx_shape:
            raise ValueError(f"Expected input matrix to have shape {expected_mx_shape}x{expected_mx_shape}")


def expval(obs, state):
    (A,) = obs.data
    return jnp.real(jnp.conj(state) @ A @ state)


matrix = jnp.array([[1.0, 0.0], [0.0, 1.0]])


@jax.jit
def circuit():
    state = jnp.array([1.0, 0.0])
    return expval(Hermitian(matrix, wires=[1]), state)


@jax.jit
def circuit_traced(matrix):
    state = jnp.array([1.0, 0.0])
    return expval(Hermitian(matrix, wires=[1]), state)


if __name__ == "__main__":
    print(circuit_traced(matrix))
    print(circuit())
