# source: https://github.com/pyro-ppl/numpyro/pull/2003
# category: C
# expect: leaks
# via: method, factory-closure, lax-fori, jit-call
# sink: attribute-write
"""ASVGD's annealing step stored the cyclical loss temperature on the inference object
(`self.loss_temperature = ...`) from inside the compiled sampling loop, where the step index is
traced; the attribute kept a tracer after the loop was compiled (a leak, #1982)."""
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

    def _loss_and_grads(self, particles):
        return self.loss_temperature * 2.0 * particles

    def setup_run(self, num_steps):
        cyc_fn = ASVGD._cyclical_annealing(num_steps, self.num_cycles)

        def step(info):
            t, particles = info
            self.loss_temperature = cyc_fn(t) / float(self.num_stein_particles)  # <-- bug
            return (t + 1, particles - 0.1 * self._loss_and_grads(particles))

        return step

    def run(self, particles, num_steps):
        step = self.setup_run(num_steps)
        loop = jax.jit(lambda info: lax.fori_loop(0, num_steps, lambda i, s: step(s), info))
        return loop((0, particles))[1]


if __name__ == "__main__":
    asvgd = ASVGD()
    print(asvgd.run(jnp.ones(4), 10))
