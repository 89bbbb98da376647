# source: https://github.com/Ash12H/SeapoPym-JAX/commit/8b5846b8d260d3b4457f504b65a950b991ee0cc1
# category: A
# expect: ok
# via: lax-scan, grad, method, factory-closure, dataclass, dict-of-arrays
# sink: int-float-bool
"""`reparameterize_log_posterior` evaluates every prior's bounds eagerly, before the sampler runs,
and the unit-space log-posterior maps parameters with those precomputed numbers, so nothing calls
`float` on a traced quantile inside the scan."""
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import jax.scipy.stats as jstats


@dataclass(frozen=True)
class Uniform:
    low: float
    high: float

    def log_prob(self, value):
        return jnp.where((value >= self.low) & (value <= self.high), -jnp.log(self.high - self.low), -jnp.inf)

    @property
    def bounds(self):
        return (self.low, self.high)


@dataclass(frozen=True)
class HalfNormal:
    scale: float
    bounds_quantile: float = 0.001

    def log_prob(self, value):
        lp = jnp.log(2.0) + jstats.norm.logpdf(value, loc=0.0, scale=self.scale)
        return jnp.where(value >= 0.0, lp, -jnp.inf)

    @property
    def bounds(self):
        upper_q = (1.0 + (1.0 - self.bounds_quantile)) / 2.0
        z = float(jstats.norm.ppf(upper_q))
        return (0.0, z * self.scale)


class PriorSet:
    def __init__(self, priors):
        self.priors = priors

    def log_prob(self, params):
        return sum(prior.log_prob(params[name]) for name, prior in self.priors.items())

    def from_unit(self, params_unit):
        result = {}
        for name, prior in self.priors.items():
            if name in params_unit:
                low, high = prior.bounds
                result[name] = params_unit[name] * (high - low) + low
        return result

    def log_det_jacobian(self):
        total = 0.0
        for prior in self.priors.values():
            low, high = prior.bounds
            total += float(jnp.log(high - low))
        return jnp.array(total)


def reparameterize_log_posterior(log_posterior_fn, prior_set):
    # Precompute bounds eagerly (outside the traced sampler)
    bounds = {name: prior.bounds for name, prior in prior_set.priors.items()}
    log_det_jac = prior_set.log_det_jacobian()

    def log_posterior_unit(params_unit):
        params_phys = {}
        for name in bounds:
            if name in params_unit:
                low, high = bounds[name]
                params_phys[name] = params_unit[name] * (high - low) + low
        return log_posterior_fn(params_phys) + log_det_jac

    return log_posterior_unit


def run_nuts(log_posterior_fn, initial_params, n_samples=50, step_size=1e-3, seed=0):
    """Stands in for the BlackJAX sampler: Langevin steps collected with `jax.lax.scan`."""
    grad_fn = jax.grad(log_posterior_fn)

    def one_step(params, key):
        g = grad_fn(params)
        keys = jax.random.split(key, len(params))
        params = {k: jnp.clip(v + step_size * g[k] + jnp.sqrt(2 * step_size) * jax.random.normal(kk), 1e-3, 1 - 1e-3)
                  for (k, v), kk in zip(sorted(params.items()), keys)}
        return params, params

    _, samples = jax.lax.scan(one_step, initial_params, jax.random.split(jax.random.PRNGKey(seed), n_samples))
    return samples


if __name__ == "__main__":
    prior_set = PriorSet({"lambda": HalfNormal(scale=0.5), "efficiency": Uniform(0.0, 1.0)})
    loss_fn = lambda p: (p["lambda"] - 0.3) ** 2 + (p["efficiency"] - 0.6) ** 2
    log_posterior = lambda p: -loss_fn(p) / 0.01 + prior_set.log_prob(p)
    log_posterior_unit = reparameterize_log_posterior(log_posterior, prior_set)
    samples = run_nuts(log_posterior_unit, {"lambda": jnp.array(0.5), "efficiency": jnp.array(0.5)})
    print({k: float(v.mean()) for k, v in samples.items()})
