# source: https://github.com/PennyLaneAI/pennylane/pull/3917
# category: C
# expect: stale
# via: jit-call, helper, method, class-attribute
# sink: closure-global
"""A broadcasted circuit is split into one tape per parameter value and executed through a
result cache keyed by the tape's hash, which is built from the string of each gate's data.
Under jax.jit every traced parameter prints the same, so all split tapes share one hash and
the cache hands the first tape's result to the others."""
import jax
import jax.numpy as jnp
import numpy as np


def _process_data(op):
    if op.name in ("RX", "RY", "RZ"):
        return str([jnp.round(jnp.real(d) % (2 * np.pi), 10) for d in op.data])
    return str(op.data)


class RX:
    name = "RX"

    def __init__(self, theta, wires):
        self.data, self.wires = (theta,), wires

    @property
    def hash(self):
        return hash((self.name, tuple(self.wires), _process_data(self)))


class QuantumScript:
    def __init__(self, ops):
        self.operations = ops

    @property
    def hash(self):
        return hash(tuple(op.hash for op in self.operations))


def broadcast_expand(tape):
    (theta,) = tape.operations[0].data
    return [QuantumScript([RX(theta[i], wires=[0])]) for i in range(theta.shape[0])]


def simulate(tape):
    (theta,) = tape.operations[0].data
    return jnp.cos(theta)  # <Z> after RX(theta) on |0>


def execute(tapes, cache):
    results = []
    for tape in tapes:
        h = tape.hash
        if h in cache:
            results.append(cache[h])  # <-- bug
            continue
        cache[h] = simulate(tape)
        results.append(cache[h])
    return jnp.stack(results)


def circuit(x):
    return execute(broadcast_expand(QuantumScript([RX(x, wires=[0])])), cache={})


if __name__ == "__main__":
    x = jnp.array([0.1, 0.8, 2.1])
    print(jnp.round(jax.jit(circuit)(x), 4))
