# source: https://github.com/jax-ml/jax/issues/2521
# category: R
# expect: ok
# via: jit-decorator, host-loop
# sink: changing-shape
"""A reversible-jump MCMC sampler evaluates a jitted likelihood of a 1D parameter array whose
length is the current number of model components, so every jump between dimensions hands the
likelihood a new shape and it compiles again.  The answer pads the parameters to the largest
size the sampler allows and masks the unused slots, so one compilation serves every model."""
import jax
import jax.numpy as jnp
import numpy as np

MAX_COMPONENTS = 6


@jax.jit
def log_likelihood(padded_heights, n, data):
    # piecewise-constant rate: the unit interval split into n equal segments
    segment = jnp.clip((data * n).astype(jnp.int32), 0, n - 1)
    rate = jnp.exp(padded_heights[segment])
    return jnp.sum(jnp.log(rate)) - jnp.sum(rate) / data.shape[0]


def pad(heights):
    out = np.zeros(MAX_COMPONENTS, np.float32)
    out[: len(heights)] = heights
    return jnp.asarray(out), jnp.int32(len(heights))


def rjmcmc(data, n_steps, seed=0):
    rng = np.random.default_rng(seed)
    heights = np.zeros(2, np.float32)
    current = float(log_likelihood(*pad(heights), data))
    for step in range(n_steps):
        k = len(heights)
        if rng.uniform() < 0.5 and k < MAX_COMPONENTS:
            proposal = np.append(heights, rng.normal()).astype(np.float32)
        elif k > 1:
            proposal = heights[:-1].copy()
        else:
            proposal = heights + rng.normal(size=k).astype(np.float32) * 0.1
        proposed = float(log_likelihood(*pad(proposal), data))
        if np.log(rng.uniform()) < proposed - current:
            heights, current = proposal, proposed
    return heights, current


if __name__ == "__main__":
    data = jnp.asarray(np.random.default_rng(1).uniform(size=64), jnp.float32)
    heights, ll = rjmcmc(data, 12)
    print(len(heights), round(ll, 3))
