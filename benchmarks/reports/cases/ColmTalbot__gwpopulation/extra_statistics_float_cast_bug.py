# source: https://github.com/ColmTalbot/gwpopulation/pull/83
# category: A
# expect: raises
# via: jit-call, method, dict-of-arrays
# sink: int-float-bool
"""The hyper-likelihood's `generate_extra_statistics` stored each event's ln Bayes factor and
variance with `float(...)`; jitted with the JAX backend, those are tracers and float() fails."""
import jax
import jax.numpy as xp


def power_law_mass(dataset, alpha, mmax):
    return xp.where(dataset["mass_1"] < mmax, dataset["mass_1"] ** -alpha, 0.0)


class HyperparameterLikelihood:
    def __init__(self, data, hyper_prior, sampling_prior, selection_function):
        self.data = data
        self.hyper_prior = hyper_prior
        self.sampling_prior = sampling_prior
        self.selection_function = selection_function
        self.n_posteriors, self.samples_per_posterior = data["mass_1"].shape

    def _compute_per_event_ln_bayes_factors(self, parameters):
        weights = self.hyper_prior(self.data, **parameters) / self.sampling_prior
        expectation = xp.mean(weights, axis=-1)
        square_expectation = xp.mean(weights**2, axis=-1)
        variance = (square_expectation - expectation**2) / (
            self.samples_per_posterior * expectation**2
        )
        return xp.log(expectation), variance

    def generate_extra_statistics(self, sample):
        parameters = dict(sample)
        ln_ls, variances = self._compute_per_event_ln_bayes_factors(parameters)
        total_variance = float(sum(variances))  # <-- bug
        for ii in range(self.n_posteriors):
            sample[f"ln_bf_{ii}"] = float(ln_ls[ii])
            sample[f"var_{ii}"] = float(variances[ii])
        selection, variance = self.selection_function(parameters)
        variance /= selection**2
        selection_variance = variance * self.n_posteriors**2
        sample["selection"] = selection
        sample["selection_variance"] = variance
        total_variance += selection_variance
        sample["variance"] = float(total_variance)
        return sample


if __name__ == "__main__":
    masses = jax.random.uniform(jax.random.PRNGKey(0), (3, 50), minval=5.0, maxval=60.0)
    likelihood = HyperparameterLikelihood(
        data={"mass_1": masses},
        hyper_prior=power_law_mass,
        sampling_prior=xp.ones_like(masses) / 55.0,
        selection_function=lambda p: (0.3 + 0.001 * p["alpha"], 1e-4),
    )
    sample = {"alpha": 2.0, "mmax": 50.0}
    extra = jax.jit(likelihood.generate_extra_statistics)(sample)
    print({k: round(float(v), 4) for k, v in sorted(extra.items())})
