# source: https://github.com/google/jaxopt/pull/113
# category: R
# expect: ok
# via: dataclass, method, helper, static-argnums, jit-call, lax-while, host-loop
# sink: fresh-callable
"""The solver's loop functions are now methods, and the call's data travels in the loop carry:
the bound methods of one solver compare equal from call to call, so the jitted loop is reused
by every `solver.run(...)` with arguments of the same shapes."""
import dataclasses

import jax
import jax.numpy as jnp


def _while_loop_lax(cond_fun, body_fun, init_val, maxiter):
    def _cond_fun(_val):
        it, val = _val
        return jnp.logical_and(cond_fun(val), it <= maxiter - 1)

    def _body_fun(_val):
        it, val = _val
        return it + 1, body_fun(val)

    return jax.lax.while_loop(_cond_fun, _body_fun, (0, init_val))[1]


def while_loop(cond_fun, body_fun, init_val, maxiter):
    fun = jax.jit(_while_loop_lax, static_argnums=(0, 1, 3))
    return fun(cond_fun, body_fun, init_val, maxiter)


@dataclasses.dataclass(eq=False)
class GradientDescent:
    fun: callable
    stepsize: float = 0.1
    maxiter: int = 200
    tol: float = 1e-4

    def update(self, params, state, *args):
        grad = jax.grad(self.fun)(params, *args)
        return params - self.stepsize * grad, jnp.sqrt(jnp.sum(grad**2))

    def _cond_fun(self, inputs):
        _, error = inputs[0]
        return error > self.tol

    def _body_fun(self, inputs):
        (params, error), args = inputs
        return self.update(params, error, *args), args

    def run(self, init_params, *args):
        opt_step = self.update(init_params, jnp.inf, *args)
        init_val = (opt_step, args)
        return while_loop(self._cond_fun, self._body_fun, init_val, self.maxiter)[0]


def least_squares(w, X, y):
    return jnp.mean((X @ w - y) ** 2)


if __name__ == "__main__":
    solver = GradientDescent(fun=least_squares, stepsize=0.5)
    for seed in range(4):
        X = jax.random.normal(jax.random.PRNGKey(seed), (32, 3))
        y = X @ jnp.array([1.0, -2.0, 0.5])
        w, err = solver.run(jnp.zeros(3), X, y)
        print(seed, jnp.round(w, 2), err < 1e-3)
