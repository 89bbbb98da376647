# source: https://github.com/kokabsc/gwkokab/commit/2c1f32af4802124b4178643d26dc294ac15b25ce
# category: B
# expect: raises
# via: checkpoint, method, equinox, numpyro, host-loop
# sink: static-spec
"""GWKokab's `PoissonMean` draws each mixture component's samples through
`jax.checkpoint(component_dist.sample)(self.key, (num_samples,))`; without static_argnums the
sample shape tuple is traced by checkpoint, and numpyro cannot build the sample shape from a
tracer.  The commit passes `static_argnums=(1,)` to `jax.checkpoint`."""
from typing import List

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.nn as jnn
from numpyro.distributions import Normal, Uniform


class ScaledMixture(eqx.Module):
    log_scales: jax.Array
    component_distributions: list

    @property
    def mixture_size(self):
        return len(self.component_distributions)


class PoissonMean(eqx.Module):
    key: jax.Array
    num_samples_per_component: List[int] = eqx.field(static=True)
    time_scale: float = 1.0

    def logVT_fn(self, samples):
        return -0.5 * jnp.square(samples)

    def calculate_per_component_rate(self, model: ScaledMixture):
        log_estimated_rate = jnp.asarray(-jnp.inf)
        for i in range(model.mixture_size):
            component_dist = model.component_distributions[i]
            num_samples = self.num_samples_per_component[i]
            samples = jax.checkpoint(component_dist.sample)(  # <-- bug
                self.key, (num_samples,)
            )
            per_sample = self.logVT_fn(samples)
            log_estimated_rate_i = (
                model.log_scales[i] - jnp.log(num_samples) + jnn.logsumexp(per_sample, axis=-1)
            )
            log_estimated_rate = jnp.logaddexp(log_estimated_rate, log_estimated_rate_i)
        return self.time_scale * jnp.exp(log_estimated_rate)


def expected_rate(poisson_mean, log_scales, loc):
    model = ScaledMixture(log_scales, [Normal(loc, 1.0), Uniform(0.0, 2.0)])
    return poisson_mean.calculate_per_component_rate(model)


if __name__ == "__main__":
    pm = PoissonMean(key=jax.random.PRNGKey(3), num_samples_per_component=[500, 300])
    for loc in (0.0, 0.5):
        print(expected_rate(pm, jnp.log(jnp.array([2.0, 3.0])), jnp.asarray(loc)))
