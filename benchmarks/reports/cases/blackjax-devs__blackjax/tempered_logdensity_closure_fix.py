# source: https://github.com/blackjax-devs/blackjax/issues/881
# category: R
# expect: ok
# via: factory-closure, jit-call, host-loop
# sink: fresh-callable
"""`logdensity_fn(position, *logdensity_params)` is closed over when the kernel is built, and the
tempering exponent is passed at call time as a traced `logdensity_params=(lmbda,)`, so the jitted
kernel compiles once for the whole tempering schedule."""
from typing import NamedTuple

import jax
import jax.numpy as jnp
import jax.scipy.stats as stats


class RWState(NamedTuple):
    position: jax.Array


def build_kernel(logdensity_fn):
    def kernel(rng_key, state, step_size, logdensity_params=()):
        key_prop, key_acc = jax.random.split(rng_key)
        proposal = state.position + step_size * jax.random.normal(key_prop, state.position.shape)
        log_ratio = logdensity_fn(proposal, *logdensity_params) - logdensity_fn(state.position, *logdensity_params)
        accept = jnp.log(jax.random.uniform(key_acc)) < log_ratio
        return RWState(jnp.where(accept, proposal, state.position))

    return kernel


observed = jnp.array([1.2, 0.7, 1.9, 1.4])


def logprior(x):
    return jnp.sum(stats.norm.logpdf(x, 0.0, 3.0))


def loglikelihood(x):
    return jnp.sum(stats.norm.logpdf(observed, x[0], 1.0))


def tempered_logdensity(x, lmbda):
    return logprior(x) + lmbda * loglikelihood(x)


if __name__ == "__main__":
    kernel = jax.jit(build_kernel(tempered_logdensity))
    state = RWState(jnp.zeros(1))
    rng_key = jax.random.PRNGKey(0)
    for lmbda in jnp.linspace(0.1, 1.0, 5):
        rng_key, step_key = jax.random.split(rng_key)
        state = kernel(step_key, state, 0.5, logdensity_params=(lmbda,))
    print(state.position)
