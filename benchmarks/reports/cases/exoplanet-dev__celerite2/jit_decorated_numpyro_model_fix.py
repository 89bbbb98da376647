# source: https://github.com/exoplanet-dev/celerite2/issues/46
# category: C
# expect: ok
# via: numpyro
# sink: leaked-tracer
"""The NumPyro model of the celerite2 GP tutorial is left undecorated; NUTS traces and compiles
the potential itself, so every evaluation records the sample and factor sites."""
import jax
import jax.numpy as jnp
import numpy as np
import numpyro
import numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS


class GaussianProcess:  # reduced from celerite2.jax: dense exponential kernel
    def __init__(self, sigma, rho):
        self.sigma, self.rho = sigma, rho

    def compute(self, t, yerr):
        k = self.sigma**2 * jnp.exp(-jnp.abs(t[:, None] - t[None, :]) / self.rho)
        self.cov = k + jnp.diag(yerr**2)

    def log_likelihood(self, r):
        return jax.scipy.stats.multivariate_normal.logpdf(r, jnp.zeros_like(r), self.cov)


prior_sigma = 2.0


def numpyro_model(t, yerr, y=None):
    mean = numpyro.sample("mean", dist.Normal(0.0, prior_sigma))
    log_sigma = numpyro.sample("log_sigma", dist.Normal(0.0, prior_sigma))
    gp = GaussianProcess(jnp.exp(log_sigma), 1.0)
    gp.compute(t, yerr)
    numpyro.factor("log_likelihood", gp.log_likelihood(y - mean))


if __name__ == "__main__":
    rng = np.random.default_rng(42)
    t = np.sort(rng.uniform(0, 10, 12))
    yerr = rng.uniform(0.08, 0.22, len(t))
    y = 0.5 + np.sin(3 * t) + yerr * rng.standard_normal(len(t))
    mcmc = MCMC(NUTS(numpyro_model, max_tree_depth=2), num_warmup=2, num_samples=3, progress_bar=False)
    mcmc.run(jax.random.PRNGKey(0), t, yerr, y=y)
    print(round(float(mcmc.get_samples()["mean"].mean()), 1))
