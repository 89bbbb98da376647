# source: https://github.com/pyro-ppl/numpyro/pull/456
# category: R
# expect: recompiles
# via: method, partial-jit, host-loop, factory-closure
# sink: fresh-callable
"""Running `MCMC.run` again on a new dataset of the same size compiled the sampler again: without
`jit_model_args` the sample function is a `partial` closing over the data (cached by the data's
bytes), so each dataset gives a new function to jit."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


class RandomWalkMH:
    def __init__(self, potential_fn_gen, step_size=0.3):
        self.potential_fn_gen, self.step_size = potential_fn_gen, step_size

    def sample(self, state, model_args, model_kwargs):
        z, rng_key = state
        rng_key, k1, k2 = jax.random.split(rng_key, 3)
        pe = self.potential_fn_gen(*model_args, **model_kwargs)
        z_new = z + self.step_size * jax.random.normal(k1, z.shape)
        accept = jnp.log(jax.random.uniform(k2)) < pe(z) - pe(z_new)
        return jnp.where(accept, z_new, z), rng_key


def _sample_fn_jit_args(state, sampler):
    hmc_state, args, kwargs = state
    return sampler.sample(hmc_state, args, kwargs), args, kwargs


def _sample_fn_nojit_args(state, sampler, args, kwargs):
    return (sampler.sample(state[0], args, kwargs),)


class MCMC:
    def __init__(self, sampler, num_samples, jit_model_args=False):
        self.sampler, self.num_samples = sampler, num_samples
        self._jit_model_args = jit_model_args
        self._cache = {}

    def _get_cached_fn(self):
        if self._jit_model_args:
            key = (None,)
        else:
            key = tuple(np.asarray(x).tobytes() for x in self._args)
        fn = self._cache.get(key)
        if fn is None:
            if self._jit_model_args:
                fn = partial(_sample_fn_jit_args, sampler=self.sampler)
            else:
                fn = partial(_sample_fn_nojit_args, sampler=self.sampler, args=self._args, kwargs={})
            self._cache[key] = fn
        return fn

    def run(self, rng_key, *args):
        self._args = args
        init_state = (jnp.zeros(()), rng_key)
        val = (init_state, args, {}) if self._jit_model_args else (init_state,)
        sample_fn = jax.jit(self._get_cached_fn())
        zs = []
        for _ in range(self.num_samples):
            val = sample_fn(val)  # <-- bug
            zs.append(val[0][0])
        return jnp.stack(zs)


def potential_fn_gen(y):
    return lambda mu: 0.5 * jnp.sum((y - mu) ** 2)


if __name__ == "__main__":
    mcmc = MCMC(RandomWalkMH(potential_fn_gen), num_samples=50)
    y1 = jnp.asarray(np.random.RandomState(0).normal(3.0, 0.1, (100,)))
    y2 = jnp.asarray(np.random.RandomState(1).normal(-3.0, 0.1, (100,)))
    print(mcmc.run(jax.random.PRNGKey(0), y1).mean())
    print(mcmc.run(jax.random.PRNGKey(1), y2).mean())
