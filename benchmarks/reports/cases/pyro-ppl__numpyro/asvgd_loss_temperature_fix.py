# source: https://github.com/pyro-ppl/numpyro/pull/2003
# category: C
# expect: ok
# via: method, factory-closure, lax-fori, jit-call
# sink: attribute-write
"""ASVGD now carries the annealed loss temperature in the loop state and passes it to the loss
function, instead of assigning it to an attribute of the inference object inside the compiled loop."""
import jax
import jax.numpy as jnp
from jax import lax


class ASVGD:
    def __init__(self, num_stein_particles=4, num_cycles=2, loss_temperature=1.0):
        self.num_stein_particles = num_stein_particles
        self.num_cycles = num_cycles
        self.loss_temperature = loss_temperature

    @staticmethod
    def _cyclical_annealing(num_steps, num_cycles):
        period = num_steps / num_cycles

        def cycle_fn(t):
            return jnp.mod(t, period) / period

        return cycle_fn

    def _loss_and_grads(self, particles, loss_temperature):
        return loss_temperature * 2.0 * particles

    def setup_run(self, num_steps):
        cyc_fn = ASVGD._cyclical_annealing(num_steps, self.num_cycles)

        def step(info):
            t, particles, loss_temperature = info
            loss_temperature = cyc_fn(t) / float(self.num_stein_particles)
            return (t + 1, particles - 0.1 * self._loss_and_grads(particles, loss_temperature), loss_temperature)

        return step

    def run(self, particles, num_steps):
        step = self.setup_run(num_steps)
        loop = jax.jit(lambda info: lax.fori_loop(0, num_steps, lambda i, s: step(s), info))
        return loop((0, particles, jnp.asarray(self.loss_temperature)))[1]


if __name__ == "__main__":
    asvgd = ASVGD()
    print(asvgd.run(jnp.ones(4), 10))
