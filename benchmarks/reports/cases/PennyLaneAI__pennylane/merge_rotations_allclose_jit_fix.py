# source: https://github.com/PennyLaneAI/pennylane/pull/1894
# category: A
# expect: ok
# via: jit-decorator, wrapper, helper
# sink: python-if
"""merge_rotations sums the angles of adjacent rotations; when the angles are abstract (a jitted
circuit) it re-applies the gate without the near-zero `allclose` test, which it keeps for
concrete angles."""
import jax
import jax.numpy as jnp


def is_abstract(x):
    return isinstance(x, jax.core.Tracer)


class RX:
    def __init__(self, angle, wires):
        self.parameters, self.wires = [angle], wires

    def matrix(self):
        c, s = jnp.cos(self.parameters[0] / 2), -1j * jnp.sin(self.parameters[0] / 2)
        return jnp.array([[c, s], [s, c]])


class RZ(RX):
    def matrix(self):
        return jnp.diag(jnp.exp(jnp.array([-0.5j, 0.5j]) * self.parameters[0]))


def find_next_gate(wires, op_list):
    for idx, op in enumerate(op_list):
        if op.wires == wires:
            return idx
    return None


def merge_rotations(ops, atol=1e-8):
    list_copy, out = list(ops), []
    while len(list_copy) > 0:
        current_gate = list_copy[0]
        next_gate_idx = find_next_gate(current_gate.wires, list_copy[1:])
        cumulative_angles = jnp.stack(current_gate.parameters)
        while next_gate_idx is not None:
            next_gate = list_copy[next_gate_idx + 1]
            if next_gate.__class__ is not current_gate.__class__:
                break
            cumulative_angles = cumulative_angles + jnp.stack(next_gate.parameters)
            list_copy.pop(next_gate_idx + 1)
            next_gate_idx = find_next_gate(current_gate.wires, list_copy[1:])
        if is_abstract(cumulative_angles):
            out.append(current_gate.__class__(*cumulative_angles, wires=current_gate.wires))
        else:
            if not jnp.allclose(cumulative_angles, jnp.zeros(len(cumulative_angles)), atol=atol, rtol=0):
                out.append(current_gate.__class__(*cumulative_angles, wires=current_gate.wires))
        list_copy.pop(0)
    return out


@jax.jit
def circuit(x, y):
    ops = merge_rotations([RX(x, wires=0), RX(y, wires=0), RZ(x, wires=0)])
    state = jnp.array([1.0 + 0j, 0.0])
    for op in ops:
        state = op.matrix() @ state
    return jnp.abs(state[0]) ** 2 - jnp.abs(state[1]) ** 2


if __name__ == "__main__":
    print(circuit(jnp.array(0.3), jnp.array(0.4)))
