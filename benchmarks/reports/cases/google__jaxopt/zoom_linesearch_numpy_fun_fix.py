# source: https://github.com/google/jaxopt/blob/35d34c80611e18cb7bb03318c650827c16ed55e0/tests/zoom_linesearch_test.py#L383
# category: A
# expect: ok
# via: method, helper, lax-while
# sink: numpy-call
"""The same line search on a NumPy objective run with `jit=False`, as jaxopt's test does for
non-jittable functions: the loop is a Python loop and the objective sees concrete numbers."""
import dataclasses
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp
import numpy as onp


def while_loop(cond_fun, body_fun, init_val, maxiter, jit=True):
    if jit:
        def _cond(val):
            return cond_fun(val[1]) & (val[0] < maxiter)
        return jax.lax.while_loop(_cond, lambda val: (val[0] + 1, body_fun(val[1])), (0, init_val))[1]
    val = init_val
    for _ in range(maxiter):
        if not cond_fun(val):
            break
        val = body_fun(val)
    return val


class LineSearchState(NamedTuple):
    stepsize: float
    value: float
    done: bool


@dataclasses.dataclass
class ZoomLineSearch:
    fun: Callable
    value_and_grad: bool = False
    c1: float = 1e-4
    maxiter: int = 30
    jit: bool = True

    def run(self, init_stepsize, params):
        value, grad = self.fun(params)
        descent = -grad

        def body(state):
            stepsize = state.stepsize * 0.5
            new_value, _ = self.fun(params + stepsize * descent)
            done = new_value <= value + self.c1 * stepsize * grad * descent
            return LineSearchState(stepsize, new_value, done)

        init = LineSearchState(init_stepsize * 2.0, value, False)
        return while_loop(lambda s: ~s.done, body, init, self.maxiter, jit=self.jit)


def fun(x):
    return -onp.sin(10 * x), -10 * onp.cos(10 * x)


def run_ls(jit):
    ls = ZoomLineSearch(fun, value_and_grad=True, jit=jit)
    return ls.run(init_stepsize=1.0, params=1.0)


if __name__ == "__main__":
    print(run_ls(jit=False).stepsize)
