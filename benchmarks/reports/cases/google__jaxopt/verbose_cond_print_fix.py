# source: https://github.com/google/jaxopt/pull/503
# category: C
# expect: ok
# via: method, dataclass, lax-while, jit-call
# sink: print
"""jaxopt's verbose mode now reports the error from the while-loop condition with
`jax.debug.print`, which prints the value at every iteration of the compiled loop, so verbose
mode works under jit."""
import dataclasses
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class ProxGradState(NamedTuple):
    iter_num: jax.Array
    error: jax.Array


@dataclasses.dataclass(eq=False)
class GradientDescent:
    fun: Callable
    stepsize: float = 0.1
    maxiter: int = 50
    tol: float = 1e-3
    verbose: bool = False

    def _cond_fun(self, inputs):
        _, state = inputs
        if self.verbose:
            name = self.__class__.__name__
            jax.debug.print("Solver: %s, Error: {error}" % name, error=state.error)
        return (state.error > self.tol) & (state.iter_num < self.maxiter)

    def _body_fun(self, inputs):
        params, state = inputs
        return self.update(params, state)

    def update(self, params, state):
        grad = jax.grad(self.fun)(params)
        return params - self.stepsize * grad, ProxGradState(state.iter_num + 1, jnp.sqrt(jnp.sum(grad**2)))

    def run(self, init_params):
        state = ProxGradState(jnp.asarray(0), jnp.asarray(jnp.inf, dtype=init_params.dtype))
        return jax.lax.while_loop(self._cond_fun, self._body_fun, (init_params, state))


def fun(w):
    return jnp.sum((w - 1.0) ** 2)


if __name__ == "__main__":
    solver = GradientDescent(fun=fun, stepsize=0.3, maxiter=8, verbose=True)
    params, state = jax.jit(solver.run)(jnp.zeros(2))
    print(params, state.iter_num)
