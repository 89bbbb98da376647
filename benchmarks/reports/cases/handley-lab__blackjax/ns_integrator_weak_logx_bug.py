# source: https://github.com/handley-lab/blackjax/pull/60
# category: R
# expect: recompiles
# via: namedtuple, helper, jit-decorator, host-loop
# sink: weak-type
"""The nested-sampling evidence integrator starts from `logX = jnp.array(0.0)` and
`logZ = jnp.array(-jnp.inf)`, weakly typed scalars; after one step they hold the strongly typed
results of `cumsum`/`logaddexp`, so the jitted `one_step` driving the sampler is traced a second
time.  The fix creates them with the loglikelihood's dtype."""
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


class NSIntegrator(NamedTuple):
    logX: jax.Array
    logZ: jax.Array
    logZ_live: jax.Array


class NSState(NamedTuple):
    particles: jax.Array
    loglikelihood: jax.Array
    integrator: NSIntegrator


def _logmeanexp(x):
    return logsumexp(x) - jnp.log(jnp.array(x.shape[0]))


def init_integrator(loglikelihood):
    logX = jnp.array(0.0)
    logZ = jnp.array(-jnp.inf)
    logZ_live = _logmeanexp(loglikelihood) + logX
    return NSIntegrator(logX, logZ, logZ_live)


def update_integrator(integrator, loglikelihood, dead_loglikelihood):
    num_particles, num_deleted = len(loglikelihood), len(dead_loglikelihood)
    num_live = jnp.arange(num_particles, num_particles - num_deleted, -1)
    delta_logX = -1 / num_live
    logX = integrator.logX + jnp.cumsum(delta_logX)
    log_delta_Z = dead_loglikelihood + logX + jnp.log1p(-jnp.exp(delta_logX))
    logZ = jnp.logaddexp(integrator.logZ, logsumexp(log_delta_Z))
    return NSIntegrator(logX[-1], logZ, _logmeanexp(loglikelihood) + logX[-1])


def loglikelihood_fn(x):
    return -0.5 * jnp.sum(x**2, axis=-1)


def ns_step(key, state, num_delete=4):
    idx = jnp.argsort(state.loglikelihood)[:num_delete]
    dead_loglikelihood = state.loglikelihood[idx]
    proposals = state.particles[idx] * 0.5 + 0.1 * jax.random.normal(key, state.particles[idx].shape)
    particles = state.particles.at[idx].set(proposals)
    loglikelihood = loglikelihood_fn(particles)
    integrator = update_integrator(state.integrator, loglikelihood, dead_loglikelihood)
    return NSState(particles, loglikelihood, integrator)


@jax.jit
def one_step(state, key):
    return ns_step(key, state)


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    particles = jax.random.normal(key, (32, 2))
    loglikelihood = loglikelihood_fn(particles)
    state = NSState(particles, loglikelihood, init_integrator(loglikelihood))
    for i in range(4):
        key, subkey = jax.random.split(key)
        state = one_step(state, subkey)  # <-- bug
        print(i, float(state.integrator.logX), float(state.integrator.logZ))
