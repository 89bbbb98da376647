# source: https://github.com/Quantinuum/qnlp_lorenz_etal_2021_resources/issues/2
# category: A
# expect: raises
# via: method, class-attribute, jit-call
# sink: numpy-call
"""A sentence-classification cost is jitted over the circuit parameters; each parametrised gate
builds its matrix in an `array` property with the NumPy module stored on the class, so the traced
phase reaches np.cos and raises TracerArrayConversionError."""
import jax
import jax.numpy as jnp
import numpy as np


class Rx:
    modules = np

    def __init__(self, phase):
        self.phase = phase

    @property
    def array(self):
        half_theta = self.modules.pi * self.phase
        cos, sin = self.modules.cos(half_theta), self.modules.sin(half_theta)  # <-- bug
        return self.modules.array([[cos, -1j * sin], [-1j * sin, cos]])


def sentence_state(params):
    state = jnp.array([1.0 + 0j, 0.0 + 0j])
    for phase in params:
        state = Rx(phase).array @ state
    return state


def get_cost(unshaped_params):
    params = unshaped_params.reshape(-1, 3)
    probs = jnp.stack([jnp.abs(sentence_state(p)) ** 2 for p in params])
    labels = jnp.array([[1.0, 0.0], [0.0, 1.0]])
    return -jnp.mean(jnp.sum(labels * jnp.log(probs + 1e-9), axis=1))


if __name__ == "__main__":
    get_cost_jit = jax.jit(get_cost)
    rand_unshaped_pars = jnp.array(np.random.RandomState(0).rand(6), dtype=jnp.float32)
    print("Cost: ", get_cost_jit(rand_unshaped_pars))
