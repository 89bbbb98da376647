# source: https://github.com/google/jaxopt/pull/458
# category: R
# expect: ok
# via: method, dataclass, namedtuple, jit-decorator, host-loop
# sink: weak-type
"""PolyakSGD's `init_state` gives `error` the parameters' dtype and `value` the dtype of the
objective's value (computed once at init), matching what `update` returns, so the jitted update
compiles once for the whole data iterator."""
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
        value = self.fun(init_params, *args, **kwargs)
        params_dtype = init_params.dtype
        return PolyakSGDState(
            iter_num=jnp.asarray(0),
            error=jnp.asarray(jnp.inf, dtype=params_dtype),
            value=jnp.asarray(jnp.inf, dtype=value.dtype),
            stepsize=jnp.asarray(1.0, dtype=params_dtype),
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
    state = opt.init_state(params, l2reg=l2reg, data=(X, y))

    @jax.jit
    def jitted_update(params, state, data):
        return opt.update(params, state, l2reg=l2reg, data=data)

    for data in dataset_loader(X, y, n_iter=20):
        params, state = jitted_update(params, state, data)
    print(params, state.iter_num)
