# source: https://github.com/google/jaxopt/pull/458
# category: R
# expect: recompiles
# via: method, dataclass, namedtuple, jit-decorator, host-loop
# sink: weak-type
"""PolyakSGD's `init_state` filled `error` and `value` with `jnp.asarray(jnp.inf)` (weakly typed),
while `update` returns float32 arrays; the jitted update used over a data iterator compiled a
second time on its second batch, when the state first came from `update`."""
import dataclasses
from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class PolyakSGDState(NamedTuple):
    iter_num: jax.Array
    error: jax.Array
    value: jax.Array
    stepsize: jax.Array


@dataclasses.dataclass(eq=False)
class PolyakSGD:
    fun: Callable
    max_stepsize: float = 1.0
    delta: float = 0.0

    def init_state(self, init_params, *args, **kwargs) -> PolyakSGDState:
        return PolyakSGDState(
            iter_num=jnp.asarray(0),
            error=jnp.asarray(jnp.inf),
            value=jnp.asarray(jnp.inf),
            stepsize=jnp.asarray(1.0, dtype=init_params.dtype),
        )

    def update(self, params, state, *args, **kwargs):
        value, grad = jax.value_and_grad(self.fun)(params, *args, **kwargs)
        grad_sqnorm = jnp.sum(grad**2)
        stepsize = jnp.minimum(value / (grad_sqnorm + self.delta), self.max_stepsize)
        new_params = params - stepsize * grad
        new_state = PolyakSGDState(iter_num=state.iter_num + 1, error=jnp.sqrt(grad_sqnorm), value=value, stepsize=stepsize)
        return new_params, new_state


def fun(w, l2reg, data):
    X, y = data
    return jnp.mean((X @ w - y) ** 2) + 0.5 * l2reg * jnp.sum(w**2)


def dataset_loader(X, y, n_iter, batch_size=8):
    rng = np.random.RandomState(0)
    for _ in range(n_iter):
        idx = rng.choice(X.shape[0], batch_size)
        yield X[idx], y[idx]


if __name__ == "__main__":
    X = np.random.RandomState(1).randn(32, 3).astype(np.float32)
    y = X @ np.array([1.0, -2.0, 0.5], np.float32)
    l2reg = 0.01
    opt = PolyakSGD(fun=fun, max_stepsize=0.5)
    params = jnp.zeros(3)
    state = opt.init_state(params, l2reg=l2reg)

    @jax.jit
    def jitted_update(params, state, data):
        return opt.update(params, state, l2reg=l2reg, data=data)

    for data in dataset_loader(X, y, n_iter=20):
        params, state = jitted_update(params, state, data)  # <-- bug
    print(params, state.iter_num)
