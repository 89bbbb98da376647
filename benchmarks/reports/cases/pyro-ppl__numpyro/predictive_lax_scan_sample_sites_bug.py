# source: https://github.com/pyro-ppl/numpyro/issues/566
# category: C
# expect: raises
# via: numpyro, lax-scan, factory-closure
# sink: leaked-tracer
"""A state-space model drew its latent and observed values with `numpyro.sample` inside the body
of a plain `jax.lax.scan`.  The sample sites are recorded by numpyro's handlers while the scan
body is being traced, so the trace that `Predictive` collects holds tracers of the scan, and
drawing prior samples fails with an escaped tracer."""
import jax
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from jax.random import PRNGKey
from numpyro.infer import Predictive


def target(T=10, q=1., r=1., phi=0.5, beta=0.5):

    def transition(state, xs):
        i, key = xs
        key1, key2 = jax.random.split(key)
        x0, mu0 = state
        x1 = numpyro.sample('x', dist.Normal(phi * x0, q), rng_key=key1)  # <-- bug
        mu1 = beta * mu0 + x1
        y1 = numpyro.sample('y', dist.Normal(mu1, r), rng_key=key2)
        return (x1, mu1), (x1, y1)

    mu0 = x0 = numpyro.sample('x_0', dist.Normal(0, q))
    y0 = numpyro.sample('y_0', dist.Normal(mu0, r))

    key = numpyro.prng_key()
    _, xy = jax.lax.scan(transition, (x0, mu0), (jnp.arange(1, T), jax.random.split(key, T - 1)))
    x, y = xy

    return jnp.append(x0, x), jnp.append(y0, y)


if __name__ == "__main__":
    prior = Predictive(target, posterior_samples={}, num_samples=10)
    prior_samples = prior(PRNGKey(2), T=10)  # <-- bug
    print({k: v.shape for k, v in prior_samples.items()})
