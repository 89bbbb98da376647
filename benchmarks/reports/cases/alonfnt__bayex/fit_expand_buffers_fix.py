# source: https://github.com/alonfnt/bayex/issues/64
# category: R
# expect: ok
# via: method, partial-jit, static-argnums, namedtuple, host-loop
# sink: changing-shape
"""bayex's `Optimizer.fit` calls `expand` outside jit before the jitted `_fit`: when the
observation buffers are full, `expand` pads them to a larger size, so each growth hands `_fit`
new shapes and compiles it again during the optimisation loop.  The issue proposes buffers of a
fixed capacity."""
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class OptimizerState(NamedTuple):
    params: jax.Array
    ys: jax.Array
    best_score: jax.Array
    mask: jax.Array


class Optimizer:
    def __init__(self, size=10, capacity=40):
        self.size = size
        self.capacity = capacity  # fixed-capacity buffers

    def init(self, y, x):
        params = jnp.zeros(self.capacity).at[0].set(x)
        ys = jnp.zeros(self.capacity).at[0].set(y)
        mask = jnp.zeros(self.capacity, bool).at[0].set(True)
        return OptimizerState(params, ys, jnp.max(ys, where=mask, initial=-jnp.inf), mask)

    def expand(self, opt_state):
        current = jnp.sum(opt_state.mask)
        if current == len(opt_state.mask):
            raise ValueError("optimizer buffers are full")
        return opt_state

    def fit(self, opt_state, y, new_params):
        opt_state = self.expand(opt_state)
        return self._fit(opt_state, y, new_params)

    @partial(jax.jit, static_argnums=(0,))
    def _fit(self, opt_state, y, new_params):
        last_idx = jnp.arange(len(opt_state.mask)) == jnp.argmin(opt_state.mask)
        mask = jnp.where(last_idx, True, opt_state.mask)
        ys = jnp.where(last_idx, y, opt_state.ys)
        params = jnp.where(last_idx, new_params, opt_state.params)
        best_score = jnp.max(ys, where=mask, initial=-jnp.inf)
        return OptimizerState(params, ys, best_score, mask)


def objective(x):
    return -((x - 1.5) ** 2)


if __name__ == "__main__":
    opt = Optimizer(size=10)
    state = opt.init(objective(0.0), 0.0)
    for step, x in enumerate(np.linspace(-2.0, 4.0, 24)):
        state = opt.fit(state, objective(x), x)
    print(float(state.best_score), int(state.mask.sum()))
