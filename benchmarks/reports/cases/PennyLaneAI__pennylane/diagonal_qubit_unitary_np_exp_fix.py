# source: https://github.com/PennyLaneAI/pennylane/pull/9157
# category: A
# expect: ok
# via: jit-decorator, method, class-attribute
# sink: numpy-call
"""DiagonalQubitUnitary decomposes recursively into a smaller diagonal unitary plus a
SelectPauliRot, building the smaller diagonal with the array library's `exp` (`qml.math.exp`,
here `jnp.exp`) instead of `np.exp`, so decomposing inside a jitted circuit keeps tracers."""
import jax
import jax.numpy as jnp
import numpy as np


class GlobalPhase:
    def __init__(self, phi, wires):
        self.data, self.wires = (phi,), wires


class RZ(GlobalPhase):
    pass


class SelectPauliRot:
    def __init__(self, angles, control_wires, target_wire):
        self.data, self.wires = (angles,), list(control_wires) + [target_wire]


class DiagonalQubitUnitary:
    def __init__(self, D, wires):
        self.data, self.wires = (D,), list(wires)

    def decomposition(self):
        return self.compute_decomposition(self.data[0], self.wires)

    @staticmethod
    def compute_decomposition(D, wires):
        angles = jnp.angle(D)
        diff = angles[..., 1::2] - angles[..., ::2]
        mean = (angles[..., ::2] + angles[..., 1::2]) / 2
        if len(wires) == 1:
            return [GlobalPhase(-jnp.squeeze(mean, axis=-1), wires=wires),
                    RZ(jnp.squeeze(diff, axis=-1), wires=wires)]
        return [
            DiagonalQubitUnitary(jnp.exp(1j * mean), wires=wires[:-1]),
            SelectPauliRot(diff, control_wires=wires[:-1], target_wire=wires[-1]),
        ]


def decompose(ops):
    out = []
    for op in ops:
        out.extend(decompose(op.decomposition()) if isinstance(op, DiagonalQubitUnitary) else [op])
    return out


@jax.jit
def circuit(phases):
    ops = decompose([DiagonalQubitUnitary(jnp.exp(1j * phases), wires=[0, 1])])
    return sum(jnp.sum(op.data[0]) for op in ops)


if __name__ == "__main__":
    print(circuit(jnp.array([0.1, 0.2, 0.3, 0.4])))
