# source: https://github.com/PennyLaneAI/pennylane/issues/5505
# category: A
# expect: raises
# via: method, class-attribute, jit-decorator, grad, helper
# sink: bool-ops
"""expval(op) warns when its observable is not Hermitian; for a scalar product the property asks
`base.is_hermitian and not iscomplex(scalar)`, and inside a jitted QNode the scalar is a tracer, so
`not` on the traced test fails before the circuit runs."""
import warnings

import jax
import jax.numpy as jnp


def iscomplex(tensor):
    return jnp.any(jnp.iscomplex(tensor))


class X:
    is_hermitian = True

    def __init__(self, wires):
        self.wires = wires
        self.name = "PauliX"

    def matrix(self):
        return jnp.array([[0.0, 1.0], [1.0, 0.0]])


class SProd:
    def __init__(self, scalar, base):
        self.scalar = scalar
        self.base = base
        self.name = "SProd"

    @property
    def is_hermitian(self):
        return self.base.is_hermitian and not iscomplex(self.scalar)  # <-- bug

    def matrix(self):
        return self.scalar * self.base.matrix()


class ExpectationMP:
    def __init__(self, obs):
        self.obs = obs

    def process_state(self, state):
        return jnp.real(jnp.conj(state) @ self.obs.matrix() @ state)


def expval(op):
    if not op.is_hermitian:
        warnings.warn(f"{op.name} might not be hermitian.")
    return ExpectationMP(obs=op)


@jax.jit
def qnode(x):
    state = jnp.array([1.0, 1.0]) / jnp.sqrt(2.0)
    return expval(SProd(x[0], X(0))).process_state(state)


if __name__ == "__main__":
    x = jnp.array([0.5])
    print(qnode(x))
    print(jax.grad(qnode)(x))
