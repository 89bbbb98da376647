# source: https://github.com/PennyLaneAI/pennylane/issues/5505
# category: A
# expect: ok
# via: method, class-attribute, jit-decorator, grad, helper
# sink: bool-ops
"""expval no longer checks is_hermitian on its observable, so building the measurement of a
scalar product with a traced coefficient needs no Python truth value."""
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
        return self.base.is_hermitian and not iscomplex(self.scalar)

    def matrix(self):
        return self.scalar * self.base.matrix()


class ExpectationMP:
    def __init__(self, obs):
        self.obs = obs

    def process_state(self, state):
        return jnp.real(jnp.conj(state) @ self.obs.matrix() @ state)


def expval(op):
    return ExpectationMP(obs=op)


@jax.jit
def qnode(x):
    state = jnp.array([1.0, 1.0]) / jnp.sqrt(2.0)
    return expval(SProd(x[0], X(0))).process_state(state)


if __name__ == "__main__":
    x = jnp.array([0.5])
    print(qnode(x))
    print(jax.grad(qnode)(x))
