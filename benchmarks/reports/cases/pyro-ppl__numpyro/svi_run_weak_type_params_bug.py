# source: https://github.com/pyro-ppl/numpyro/pull/959
# category: R
# expect: recompiles
# via: numpyro, method, jit-call, factory-closure, host-loop
# sink: weak-type
"""`SVI.init` collected the initial values of `numpyro.param` sites as given (a Python float), while
each update returned float32 parameters, so the jitted `body_fn` of `svi.run` was traced again on
its second step."""
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from numpyro.handlers import seed, trace
from numpyro.infer import Trace_ELBO
from numpyro.optim import Adam


class SVIState(NamedTuple):
    optim_state: tuple
    rng_key: jax.Array


class SVI:
    def __init__(self, model, guide, optim, loss):
        self.model, self.guide, self.optim, self.loss = model, guide, optim, loss

    def init(self, rng_key, *args):
        guide_trace = trace(seed(self.guide, rng_key)).get_trace(*args)
        params = {name: site["value"] for name, site in guide_trace.items() if site["type"] == "param"}
        return SVIState(self.optim.init(params), rng_key)

    def update(self, svi_state, *args):
        rng_key, rng_key_step = jax.random.split(svi_state.rng_key)
        params = self.optim.get_params(svi_state.optim_state)
        loss_fn = lambda p: self.loss.loss(rng_key_step, p, self.model, self.guide, *args)
        loss_val, grads = jax.value_and_grad(loss_fn)(params)
        return SVIState(self.optim.update(grads, svi_state.optim_state), rng_key), loss_val

    def run(self, rng_key, num_steps, *args):
        def body_fn(svi_state, _):
            return self.update(svi_state, *args)

        svi_state = self.init(rng_key, *args)
        body_fn = jax.jit(body_fn)
        for _ in range(num_steps):
            svi_state, loss = body_fn(svi_state, None)  # <-- bug
        return self.optim.get_params(svi_state.optim_state), loss


def model(data):
    z = numpyro.sample("z", dist.Normal(0.0, 1.0))
    numpyro.sample("obs", dist.Normal(z, 1.0), obs=data)


def guide(data):
    q_loc = numpyro.param("q_loc", 0.0)
    numpyro.sample("z", dist.Normal(q_loc, 1.0))


if __name__ == "__main__":
    data = jnp.array([0.8, 1.2, 1.0, 0.9])
    svi = SVI(model, guide, Adam(0.05), Trace_ELBO())
    params, loss = svi.run(jax.random.PRNGKey(0), 20, data)
    print(round(float(params["q_loc"]), 3), round(float(loss), 3))
