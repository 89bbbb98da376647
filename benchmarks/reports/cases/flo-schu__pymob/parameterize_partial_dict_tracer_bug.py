# source: https://github.com/flo-schu/pymob/pull/158
# category: C
# expect: raises
# via: numpyro, method, helper, host-loop
# sink: in-place-update
"""pymob binds the default model parameters into `sim.parameterize` with functools.partial, and
`parameterize` updated that bound dict in place with the free parameters.  Prior predictive
checks with the numpyro backend then left tracers in the partial's defaults, and the next plain
`sim.dispatch()` ran the solver on an escaped tracer.  The fix deep-copies the dict first."""
import copy
from functools import partial

import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from jax import random
from numpyro.infer import Predictive


class SimulationBase:
    def __init__(self, model_parameters):
        self.model_parameters = model_parameters
        self.parameterize = partial(
            self.parameterize, model_parameters=copy.deepcopy(dict(self.model_parameters))
        )

    @staticmethod
    def parameterize(free_parameters, model_parameters):
        parameters = model_parameters["parameters"]
        parameters.update(free_parameters)  # <-- bug
        return dict(parameters=parameters, y0=model_parameters["y0"])

    @staticmethod
    def solve(parameters, y0, n_steps=10, dt=0.1):
        prey, predator = y0
        for _ in range(n_steps):
            dprey = parameters["alpha"] * prey - parameters["beta"] * prey * predator
            dpred = parameters["delta"] * prey * predator - parameters["gamma"] * predator
            prey, predator = prey + dt * dprey, predator + dt * dpred
        return jnp.stack([prey, predator])

    def dispatch(self, theta):
        model_parameters = self.parameterize(dict(theta))
        return self.solve(model_parameters["parameters"], model_parameters["y0"])

    def prior_predictive_checks(self, n=8):
        def model():
            alpha = numpyro.sample("alpha", dist.LogNormal(0.0, 0.3))
            numpyro.deterministic("final", self.dispatch({"alpha": alpha}))

        return Predictive(model, num_samples=n)(random.PRNGKey(0))["final"]


if __name__ == "__main__":
    sim = SimulationBase({
        "parameters": {"alpha": 0.5, "beta": 0.02, "delta": 0.01, "gamma": 0.3},
        "y0": (jnp.array(40.0), jnp.array(9.0)),
    })
    print(sim.prior_predictive_checks().mean(axis=0))
    print(sim.dispatch({"beta": 0.03}))  # <-- bug
