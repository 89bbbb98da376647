# source: https://github.com/edeno/state_space_practice/blob/f9e1d8f18691b0a2998807465eefc9707cac9445/src/state_space_practice/tests/test_switching_point_process.py#L9424
# category: R
# expect: recompiles
# via: method, static-argnums, lax-scan, host-loop, namedtuple
# sink: fresh-callable
"""The switching point-process model's E-step builds a fresh log-intensity closure on every EM
iteration and hands it to the jitted filter, whose log_intensity_func is a static argument cached
by identity; each new closure misses the cache and the whole scan is traced and compiled again."""
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class SpikeObsParams(NamedTuple):
    baseline: jax.Array
    weights: jax.Array


@partial(jax.jit, static_argnames=("log_intensity_func",))
def switching_point_process_filter(spikes, init_mean, spike_params, log_intensity_func):
    def step(mean, y):
        rate = jnp.exp(log_intensity_func(mean, spike_params))
        mean = 0.9 * mean + 0.01 * spike_params.weights.T @ (y - rate)
        return mean, jnp.sum(y * jnp.log(rate) - rate)

    _, ll = jax.lax.scan(step, init_mean, spikes)
    return jnp.sum(ll)


class SwitchingPointProcessModel:
    def __init__(self, n_neurons, n_latent):
        self.spike_params = SpikeObsParams(jnp.zeros(n_neurons), 0.1 * jnp.ones((n_neurons, n_latent)))
        self.init_mean = jnp.zeros(n_latent)

    def _e_step(self, spikes):
        def log_intensity_func(state, params):
            return params.baseline + params.weights @ state

        return switching_point_process_filter(  # <-- bug
            spikes, self.init_mean, self.spike_params, log_intensity_func=log_intensity_func
        )

    def _m_step(self, spikes):
        rate = jnp.mean(spikes, axis=0) + 1e-3
        self.spike_params = self.spike_params._replace(baseline=jnp.log(rate))

    def fit(self, spikes, max_iter=3):
        lls = []
        for _ in range(max_iter):
            lls.append(float(self._e_step(spikes)))
            self._m_step(spikes)
        return lls


if __name__ == "__main__":
    spikes = jax.random.poisson(jax.random.PRNGKey(0), 0.5, shape=(40, 4)).astype(float)
    model = SwitchingPointProcessModel(n_neurons=4, n_latent=2)
    print(model.fit(spikes, max_iter=3))
