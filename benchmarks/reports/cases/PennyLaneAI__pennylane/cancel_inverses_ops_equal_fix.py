# source: https://github.com/PennyLaneAI/pennylane/pull/7487
# category: A
# expect: ok
# via: jit-decorator, wrapper, helper, class-attribute
# sink: bool-ops
"""The cancel_inverses transform compares two gates' parameters one by one, treating abstract
(traced) parameters as equal only when they are the same tracer, so a jitted circuit no longer
asks for the truth of a traced equality."""
import jax
import jax.numpy as jnp


class Operator:
    def __init__(self, *params, wires):
        self.data = tuple(params)
        self.wires = (wires,)
        self.hyperparameters = {}


class RX(Operator):
    def matrix(self):
        (theta,) = self.data
        c, s = jnp.cos(theta / 2), -1j * jnp.sin(theta / 2)
        return jnp.array([[c, s], [s, c]])


class Adjoint(Operator):
    def __init__(self, base):
        super().__init__(*base.data, wires=base.wires[0])
        self.base = base

    def matrix(self):
        return jnp.conj(self.base.matrix()).T


def _check_equality(items1, items2):
    """Checks if two data objects are equal, considering abstractness."""
    for d1, d2 in zip(items1, items2, strict=True):
        if isinstance(d1, jax.core.Tracer) or isinstance(d2, jax.core.Tracer):
            if d1 is not d2:
                return False
        elif d1 != d2:
            return False
    return True


def _ops_equal(op1, op2):
    """Checks if two operators are equal up to class, data, hyperparameters, and wires"""
    return (
        op1.__class__ is op2.__class__
        and _check_equality(op1.data, op2.data)
        and _check_equality(op1.wires, op2.wires)
        and (op1.hyperparameters == op2.hyperparameters)
    )


def _are_inverses(op1, op2):
    if isinstance(op1, Adjoint) and _ops_equal(op1.base, op2):
        return True
    if isinstance(op2, Adjoint) and _ops_equal(op2.base, op1):
        return True
    return False


def cancel_inverses(qfunc):
    def transformed(*args):
        ops = qfunc(*args)
        out = []
        for op in ops:
            if out and _are_inverses(out[-1], op):
                out.pop()
            else:
                out.append(op)
        return out
    return transformed


def expval_z(ops):
    state = jnp.array([1.0 + 0j, 0.0])
    for op in ops:
        state = op.matrix() @ state
    return jnp.real(jnp.abs(state[0]) ** 2 - jnp.abs(state[1]) ** 2)


@jax.jit
def circuit(x):
    ops = cancel_inverses(lambda x: [Adjoint(RX(x + 0.0, wires=0)), RX(x, wires=0)])(x)
    return expval_z(ops)


if __name__ == "__main__":
    print(circuit(jnp.array(0.3)))
