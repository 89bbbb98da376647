# source: https://github.com/CDCgov/DynODE/commit/459da58a061e500ec6c94e4821d01e3cc88cb016
# category: C
# expect: ok
# via: method, numpyro, lax-scan, helper
# sink: attribute-write
"""`MechanisticRunner.run` keeps the last ODE solution on the runner (`self.solution = solution`);
when the inferer calls it from the numpyro model during NUTS, the stored solution holds tracers
of the sampler's trace, and the commit's new test under `jax.check_tracer_leaks()` reports the
leak. The fix stops storing the solution on the runner."""
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpyro
import numpyro.distributions as Dist
from numpyro.infer import MCMC, NUTS


class Solution(NamedTuple):
    ys: jax.Array


def diffeqsolve(term, t0, t1, dt0, y0, args):
    """Reduced stand-in for diffrax.diffeqsolve: fixed-step Euler, saving every step."""
    ts = jnp.arange(t0, t1, dt0)

    def step(y, t):
        y = y + dt0 * term(t, y, args)
        return y, y

    _, ys = jax.lax.scan(step, y0, ts)
    return Solution(ys=ys)


def sir_ode(state, t, parameters):
    s, i, r = state
    new_inf = parameters["BETA"] * s * i
    return jnp.stack([-new_inf, new_inf - 0.1 * i, 0.1 * i])


class MechanisticRunner:
    def __init__(self, model):
        self.model = model

    def run(self, initial_state, args, tf: int = 30):
        term = lambda t, state, parameters: self.model(state, t, parameters)
        solution = diffeqsolve(term, 0.0, float(tf), 1.0, initial_state, args=args)
        return solution


class MechanisticInferer:
    def __init__(self, runner, initial_state):
        self.runner = runner
        self.initial_state = initial_state

    def likelihood(self, obs=None):
        beta = numpyro.sample("BETA", Dist.Uniform(0.1, 0.6))
        solution = self.runner.run(self.initial_state, args={"BETA": beta})
        incidence = jnp.clip(-jnp.diff(solution.ys[:, 0]), 1e-6)
        numpyro.sample("obs", Dist.Poisson(jnp.nan_to_num(1000 * incidence) + 1e-3), obs=obs)

    def infer(self, obs):
        mcmc = MCMC(NUTS(self.likelihood), num_warmup=10, num_samples=10, progress_bar=False)
        mcmc.run(jax.random.PRNGKey(0), obs=obs)
        return mcmc.get_samples()


if __name__ == "__main__":
    initial_state = jnp.array([0.99, 0.01, 0.0])
    runner = MechanisticRunner(sir_ode)
    synthetic = runner.run(initial_state, args={"BETA": 0.35})
    obs = jnp.round(1000 * jnp.clip(-jnp.diff(synthetic.ys[:, 0]), 1e-6))
    samples = MechanisticInferer(runner, initial_state).infer(obs)
    print(round(float(samples["BETA"].mean()), 1))
