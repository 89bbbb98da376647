# source: https://github.com/jax-ml/jax/issues/575
# category: A
# expect: ok
# via: jit-decorator, list-of-arrays
# sink: python-if
"""A jitted Metropolis-Hastings sampler over binary words decides each flip with `np.where` on
the traced accept test, drawing the uniform every time, instead of a Python `if`."""
import itertools as it
from functools import partial

import jax.numpy as np
from jax import jit, random

N = 4

marg_1 = lambda i, x: x[i]
marg_2 = lambda i, j, x: x[i] * x[j]

marg_1s = [partial(marg_1, i) for i in range(N)]
marg_2s = [partial(marg_2, i, j) for i, j in it.combinations(range(N), r=2)]
funcs = marg_1s + marg_2s


@jit
def calc_e(factors, word):
    return np.sum(np.stack([factor * func(word) for factor, func in zip(factors, funcs)]))


@jit
def sample(factors, N=N, seed=0, n_samps=3):
    key = random.PRNGKey(seed)
    key, subkey = random.split(key)
    state = random.randint(subkey, minval=0, maxval=2, shape=(N,))
    all_states = []
    for _ in range(n_samps):
        all_states.append(state)
        for i in range(N):
            state_flipped = state.at[i].set(1 - state[i])
            dE = calc_e(factors, state_flipped) - calc_e(factors, state)
            key, subkey = random.split(key)
            rand = random.uniform(subkey, shape=())
            accept = (dE < 0) | (rand < np.exp(-dE))
            state = np.where(accept, state_flipped, state)
    return np.stack(all_states)


if __name__ == "__main__":
    factors = np.linspace(-1.0, 1.0, len(funcs))
    print(sample(factors))
