# source: https://github.com/markean/aimz/issues/273
# category: R
# expect: ok
# via: numpyro, method, static-argnums, jit-call, lax-scan, host-loop
# sink: fresh-callable
"""With a posterior that covers every latent site no draw happens, so the kernel is passed to the
jitted log-likelihood as it is, without a seeding handler: the static model is the same on every
call and the compiled program is reused."""
from functools import partial

import jax
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from numpyro.handlers import substitute, trace


@partial(jax.jit, static_argnames="model")
def _log_likelihood(model, samples, model_kwargs):
    def _loglik_one_sample(sample):
        model_trace = trace(substitute(model, sample)).get_trace(**model_kwargs)
        return {
            k: site["fn"].log_prob(site["value"])
            for k, site in model_trace.items()
            if site["type"] == "sample" and site["is_observed"]
        }

    return jax.lax.map(_loglik_one_sample, xs=samples)


def kernel(X, y=None):
    beta = numpyro.sample("beta", dist.Normal(0.0, 1.0))
    numpyro.sample("y", dist.Normal(beta * X, 1.0), obs=y)


class ImpactModel:
    def __init__(self, kernel, posterior):
        self.kernel = kernel
        self.posterior = posterior
        self._rng_key = jax.random.PRNGKey(0)

    def log_likelihood(self, X, y):
        return _log_likelihood(self.kernel, self.posterior, {"X": X, "y": y})


if __name__ == "__main__":
    posterior = {"beta": jnp.linspace(0.5, 1.5, 8)}
    model = ImpactModel(kernel, posterior)
    X = jnp.arange(5.0)
    for shift in range(3):
        ll = model.log_likelihood(X, X + shift)
        print(ll["y"].shape, round(float(ll["y"].sum()), 3))
