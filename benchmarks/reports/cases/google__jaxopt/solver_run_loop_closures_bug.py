# source: https://github.com/google/jaxopt/pull/113
# category: R
# expect: recompiles
# via: dataclass, method, helper, static-argnums, jit-call, lax-while, host-loop
# sink: fresh-callable
"""`IterativeSolver._run` defined its `cond_fun` and `body_fun` as closures over the call's data
and handed them to a loop helper that jits the loop with the two functions as static arguments.
Each `solver.run(...)` therefore made new static arguments, and calling `run` outside `jit` (here
once per dataset) compiled the whole solver loop again on every call.  (jaxopt is not installed:
the loop helper and a small gradient-descent solver are reduced here.)"""
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
    return fun(cond_fun, body_fun, init_val, maxiter)  # <-- bug


@dataclasses.dataclass(eq=False)
class GradientDescent:
    fun: callable
    stepsize: float = 0.1
    maxiter: int = 200
    tol: float = 1e-4

    def update(self, params, state, *args):
        grad = jax.grad(self.fun)(params, *args)
        return params - self.stepsize * grad, jnp.sqrt(jnp.sum(grad**2))

    def run(self, init_params, *args):
        def cond_fun(pair):
            _, error = pair
            return error > self.tol

        def body_fun(pair):
            params, error = pair
            return self.update(params, error, *args)

        opt_step = self.update(init_params, jnp.inf, *args)
        return while_loop(cond_fun, body_fun, opt_step, self.maxiter)  # <-- bug


def least_squares(w, X, y):
    return jnp.mean((X @ w - y) ** 2)


if __name__ == "__main__":
    solver = GradientDescent(fun=least_squares, stepsize=0.5)
    for seed in range(4):
        X = jax.random.normal(jax.random.PRNGKey(seed), (32, 3))
        y = X @ jnp.array([1.0, -2.0, 0.5])
        w, err = solver.run(jnp.zeros(3), X, y)  # <-- bug
        print(seed, jnp.round(w, 2), err < 1e-3)
