# source: https://github.com/pyro-ppl/numpyro/issues/566
# category: C
# expect: ok
# via: numpyro, lax-scan, factory-closure
# sink: leaked-tracer
"""The state-space model written with numpyro's own `scan` (`numpyro.contrib.control_flow`), the
primitive added in response: it runs the handlers inside the loop body and returns the sample
sites stacked along time, so `Predictive` sees concrete values."""
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from jax.random import PRNGKey
from numpyro.contrib.control_flow import scan
from numpyro.infer import Predictive


def target(T=10, q=1., r=1., phi=0.5, beta=0.5):

    def transition(state, i):
        x0, mu0 = state
        x1 = numpyro.sample('x', dist.Normal(phi * x0, q))
        mu1 = beta * mu0 + x1
        y1 = numpyro.sample('y', dist.Normal(mu1, r))
        return (x1, mu1), (x1, y1)

    mu0 = x0 = numpyro.sample('x_0', dist.Normal(0, q))
    y0 = numpyro.sample('y_0', dist.Normal(mu0, r))

    _, xy = scan(transition, (x0, mu0), jnp.arange(1, T))
    x, y = xy

    return jnp.append(x0, x), jnp.append(y0, y)


if __name__ == "__main__":
    prior = Predictive(target, posterior_samples={}, num_samples=10)
    prior_samples = prior(PRNGKey(2), T=10)
    print({k: v.shape for k, v in prior_samples.items()})
