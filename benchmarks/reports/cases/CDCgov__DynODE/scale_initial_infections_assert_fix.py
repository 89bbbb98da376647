# source: https://github.com/CDCgov/DynODE/commit/adaf97cb4333757cf1fabf153fcc6837ab6615dc
# category: A
# expect: ok
# via: numpyro, method, helper
# sink: python-if
"""`scale_initial_infections` asserts that the rescaled susceptible fraction is non-negative;
during inference the scale factor is a numpyro sample, so under NUTS the assert asks for the
truth value of a traced comparison and fails with a tracer boolean conversion error. The fix
drops the assert."""
from types import SimpleNamespace

import jax
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS


class AbstractParameters:
    def __init__(self):
        self.config = SimpleNamespace(COMPARTMENT_IDX=SimpleNamespace(S=0, E=1, I=2, C=3))
        self.INITIAL_STATE = (
            jnp.array([900.0, 800.0]),
            jnp.array([10.0, 5.0]),
            jnp.array([4.0, 2.0]),
            jnp.array([0.0, 0.0]),
        )

    def scale_initial_infections(self, scale_factor):
        pop_counts_by_compartment = jnp.array(
            [jnp.sum(compartment) for compartment in self.INITIAL_STATE[: self.config.COMPARTMENT_IDX.C]]
        )
        initial_infections = (
            pop_counts_by_compartment[self.config.COMPARTMENT_IDX.E]
            + pop_counts_by_compartment[self.config.COMPARTMENT_IDX.I]
        )
        initial_susceptibles = pop_counts_by_compartment[self.config.COMPARTMENT_IDX.S]
        gained_infections = scale_factor * initial_infections - initial_infections
        scale_factor_susceptible_compartment = 1 - (gained_infections / initial_susceptibles)
        scale_factors = [scale_factor_susceptible_compartment, scale_factor, scale_factor, 1.0]
        return tuple(compartment * factor for compartment, factor in zip(self.INITIAL_STATE, scale_factors))

    def likelihood(self, obs=None):
        scale = numpyro.sample("INITIAL_INFECTIONS_SCALE", dist.LogNormal(0.0, 0.3))
        initial_state = self.scale_initial_infections(scale)
        infected = jnp.sum(initial_state[1] + initial_state[2])
        numpyro.sample("obs", dist.Poisson(infected), obs=obs)


if __name__ == "__main__":
    params = AbstractParameters()
    mcmc = MCMC(NUTS(params.likelihood), num_warmup=20, num_samples=20, progress_bar=False)
    mcmc.run(jax.random.PRNGKey(0), obs=jnp.array(25.0))
    print(mcmc.get_samples()["INITIAL_INFECTIONS_SCALE"].mean())
