# source: https://github.com/andresgur/mind_the_gaps/issues/78
# category: C
# expect: ok
# via: method, lax-scan, helper
# sink: leaked-tracer
"""`Celerite2GP.compute_fit` fills a private copy of the kernel spec with the parameters it is given,
so the traced values of the `lax.map` in `_get_log_likes` never reach the spec that
`process_lightcurves` shares between the simulated lightcurves' models."""
import copy

import jax
import jax.numpy as jnp
from jax import lax


class NUTS:
    """Stand-in for numpyro's sampler kernel: keeps the model's log density."""

    def __init__(self, model):
        self.model = model


class MCMC:
    """Stand-in for numpyro's MCMC driver (a random-walk chain run with lax.scan)."""

    def __init__(self, kernel, num_warmup, num_samples, progress_bar=False):
        self.kernel, self.num_warmup, self.num_samples = kernel, num_warmup, num_samples

    def run(self, rng_key, init_params, **model_kwargs):
        logp = lambda p: self.kernel.model(p, **model_kwargs)

        def step(carry, key):
            p, lp = carry
            k1, k2 = jax.random.split(key)
            q = p + 0.2 * jax.random.normal(k1, p.shape)
            lq = logp(q)
            accept = jnp.log(jax.random.uniform(k2)) < lq - lp
            p, lp = jnp.where(accept, q, p), jnp.where(accept, lq, lp)
            return (p, lp), p

        keys = jax.random.split(rng_key, self.num_warmup + self.num_samples)
        _, chain = lax.scan(step, (init_params, logp(init_params)), keys)
        self._samples = chain[self.num_warmup:]

    def get_samples(self):
        return {"log_sigma": self._samples[:, 0], "log_rho": self._samples[:, 1]}


class KernelParameterSpec:
    def __init__(self, value, fixed=False, bounds=None):
        self.value = value
        self.fixed = fixed
        self.bounds = bounds


class KernelSpec:
    def __init__(self, parameters):
        self.parameters = parameters

    def get_param_array(self):
        return jnp.array([p.value for p in self.parameters.values() if not p.fixed])

    def update_params_from_array(self, array):
        free = [p for p in self.parameters.values() if not p.fixed]
        for param, value in zip(free, array):
            param.value = value


class GappyLightcurve:
    def __init__(self, times, y, dy):
        self.times, self.y, self.dy = times, y, dy


class Celerite2GP:
    def __init__(self, kernel_spec, lightcurve):
        self.kernel_spec = kernel_spec
        self._lightcurve = lightcurve

    def _loglike(self, log_sigma, log_rho):
        t, y, dy = self._lightcurve.times, self._lightcurve.y, self._lightcurve.dy
        tau = jnp.abs(t[:, None] - t[None, :])
        K = jnp.exp(2 * log_sigma) * jnp.exp(-tau / jnp.exp(log_rho)) + jnp.diag(dy**2)
        r = y - jnp.mean(y)
        return -0.5 * (r @ jnp.linalg.solve(K, r) + jnp.linalg.slogdet(K)[1])

    def numpyro_model(self, params, t):
        in_bounds = jnp.all(jnp.abs(params) < 3.0)
        return jnp.where(in_bounds, self._loglike(params[0], params[1]), -jnp.inf)

    def compute_fit(self, params, t, log_like=False):
        kernel_spec = copy.deepcopy(self.kernel_spec)
        kernel_spec.update_params_from_array(params)
        p = kernel_spec.parameters
        return self._loglike(p["log_sigma"].value, p["log_rho"].value)


class Celerite2GPEngine:
    def __init__(self, kernel_spec, lightcurve, seed=0):
        self.kernel_spec = kernel_spec
        self._lightcurve = lightcurve
        self.rng_key = jax.random.PRNGKey(seed)
        self.init_params = self.kernel_spec.get_param_array()
        self.gp = Celerite2GP(kernel_spec=self.kernel_spec, lightcurve=lightcurve)
        self.lcs = None

    def derive_posteriors(self, num_warmup=20, num_samples=20):
        mcmc = MCMC(NUTS(self.gp.numpyro_model), num_warmup=num_warmup,
                    num_samples=num_samples, progress_bar=False)
        mcmc.run(self.rng_key, self.init_params, t=self._lightcurve.times)
        self._mcmc_samples = mcmc.get_samples()
        self._get_log_likes()

    def _get_log_likes(self):
        param_matrix = jnp.stack([self._mcmc_samples[k] for k in ("log_sigma", "log_rho")], axis=-1)

        def compute_likelihood(p):
            return self.gp.compute_fit(params=p, t=self._lightcurve.times, log_like=True)

        self._loglikelihoods = lax.map(compute_likelihood, param_matrix)

    @property
    def max_loglikelihood(self):
        return float(jnp.max(self._loglikelihoods))

    def generate_from_posteriors(self, nsims):
        keys = jax.random.split(self.rng_key, nsims)
        lc = self._lightcurve
        self.lcs = [GappyLightcurve(lc.times, lc.y + 0.1 * jax.random.normal(k, lc.y.shape), lc.dy)
                    for k in keys]


class GPModelling:
    def __init__(self, kernel_spec, lightcurve):
        self.modelling_engine = Celerite2GPEngine(kernel_spec=kernel_spec, lightcurve=lightcurve)

    def derive_posteriors(self, **engine_kwargs):
        self.modelling_engine.derive_posteriors(**engine_kwargs)

    @property
    def max_loglikelihood(self):
        return self.modelling_engine.max_loglikelihood


class GPModellingComparison:
    def __init__(self, null_kernel_spec, alt_kernel_spec, lightcurve):
        self.null_kernel_spec = null_kernel_spec
        self.alt_kernel_spec = alt_kernel_spec
        self._null_kernel_spec = copy.deepcopy(null_kernel_spec)
        self._alt_kernel_spec = copy.deepcopy(alt_kernel_spec)
        self.null_model = GPModelling(kernel_spec=null_kernel_spec, lightcurve=lightcurve)
        self.alt_model = GPModelling(kernel_spec=alt_kernel_spec, lightcurve=lightcurve)

    def derive_posteriors(self, **engine_kwargs):
        self.null_model.derive_posteriors(**engine_kwargs)
        self.alt_model.derive_posteriors(**engine_kwargs)

    def generate_from_posteriors(self, nsims):
        self.null_model.modelling_engine.generate_from_posteriors(nsims=nsims)

    def process_lightcurves(self, **posterior_kwargs):
        self.likelihoods_null, self.likelihoods_alt = [], []
        for lc in self.null_model.modelling_engine.lcs:
            null_modelling = GPModelling(kernel_spec=self.null_kernel_spec, lightcurve=lc)
            null_modelling.derive_posteriors(**posterior_kwargs)
            self.likelihoods_null.append(null_modelling.max_loglikelihood)
            alternative_modelling = GPModelling(kernel_spec=self.alt_kernel_spec, lightcurve=lc)
            alternative_modelling.derive_posteriors(**posterior_kwargs)
            self.likelihoods_alt.append(alternative_modelling.max_loglikelihood)


def make_spec(log_rho_fixed):
    return KernelSpec({
        "log_sigma": KernelParameterSpec(0.0, bounds=(-3.0, 3.0)),
        "log_rho": KernelParameterSpec(1.0, fixed=log_rho_fixed, bounds=(-3.0, 3.0)),
    })


if __name__ == "__main__":
    t = jnp.linspace(0.0, 10.0, 25)
    y = jnp.sin(t) + 0.1 * jax.random.normal(jax.random.PRNGKey(1), t.shape)
    lc = GappyLightcurve(t, y, 0.1 * jnp.ones_like(t))
    comparison = GPModellingComparison(make_spec(False), make_spec(False), lc)
    comparison.derive_posteriors()
    comparison.generate_from_posteriors(nsims=1)
    comparison.process_lightcurves()
    print("null:", comparison.likelihoods_null, "alt:", comparison.likelihoods_alt)
