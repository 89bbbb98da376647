# source: https://github.com/blackjax-devs/blackjax/issues/881
# category: R
# expect: recompiles
# via: factory-closure, static-argnums, jit-call, host-loop
# sink: fresh-callable
"""Inner MCMC kernels took `logdensity_fn` at call time, so SMC tempering built a new closure
`logprior + lmbda * loglikelihood` at every tempering step and handed it to the jitted kernel as a
static argument: each new closure compiled the kernel again."""
from typing import NamedTuple

import jax
import jax.numpy as jnp
import jax.scipy.stats as stats


class RWState(NamedTuple):
    position: jax.Array


def build_kernel():
    def kernel(rng_key, state, logdensity_fn, step_size):
        key_prop, key_acc = jax.random.split(rng_key)
        proposal = state.position + step_size * jax.random.normal(key_prop, state.position.shape)
        log_ratio = logdensity_fn(proposal) - logdensity_fn(state.position)
        accept = jnp.log(jax.random.uniform(key_acc)) < log_ratio
        return RWState(jnp.where(accept, proposal, state.position))

    return kernel


observed = jnp.array([1.2, 0.7, 1.9, 1.4])


def logprior(x):
    return jnp.sum(stats.norm.logpdf(x, 0.0, 3.0))


def loglikelihood(x):
    return jnp.sum(stats.norm.logpdf(observed, x[0], 1.0))


if __name__ == "__main__":
    kernel = jax.jit(build_kernel(), static_argnames="logdensity_fn")
    state = RWState(jnp.zeros(1))
    rng_key = jax.random.PRNGKey(0)
    for lmbda in jnp.linspace(0.1, 1.0, 5):
        tempered_logdensity = lambda x: logprior(x) + lmbda * loglikelihood(x)
        rng_key, step_key = jax.random.split(rng_key)
        state = kernel(step_key, state, logdensity_fn=tempered_logdensity, step_size=0.5)  # <-- bug
    print(state.position)
