# source: https://github.com/google/jaxopt/commit/e196ece2916d8544b0cb191f0946a203fc7c3110
# category: C
# expect: ok
# via: jit-call, custom-vjp, grad, method, class-attribute, lax-fori
# sink: leaked-tracer
"""The commit hoists the solver construction out of the jitted function and passes the
`Bisection` as a static argument, so no jit tracer is stored on the solver that `custom_root`
closes over."""
import jax
import jax.numpy as jnp
import numpy as onp


def custom_root(optimality_fun):
    """Reduced: implicit differentiation of a scalar root of `optimality_fun`."""
    def wrapper(solver_fun):
        @jax.custom_vjp
        def solver(x, s):
            return solver_fun(x, s)

        def fwd(x, s):
            sol = solver_fun(x, s)
            return sol, (sol, x, s)

        def bwd(res, g):
            sol, x, s = res
            dF_dsol = jax.grad(optimality_fun, argnums=0)(sol, x, s)
            _, vjp_theta = jax.vjp(lambda x, s: optimality_fun(sol, x, s), x, s)
            return vjp_theta(-g / dF_dsol)

        solver.defvjp(fwd, bwd)
        return solver
    return wrapper


class Bisection:
    """Reduced: bisection on [lower, upper] for the root of `optimality_fun`."""
    def __init__(self, optimality_fun, lower, upper, maxiter=30):
        self.optimality_fun = optimality_fun
        self.lower = lower
        self.upper = upper
        self.maxiter = maxiter

    def _run(self, x, s):
        def body(i, bounds):
            lo, up = bounds
            mid = (lo + up) / 2
            pos = self.optimality_fun(mid, x, s) > 0
            return jnp.where(pos, mid, lo), jnp.where(pos, up, mid)
        lo, up = jax.lax.fori_loop(0, self.maxiter, body, (self.lower, self.upper))
        return (lo + up) / 2

    def run(self, x, s):
        return custom_root(self.optimality_fun)(self._run)(x, s)


def _optimality_fun_proj_simplex(tau, x, s):
    return jnp.sum(jnp.maximum(x - tau, 0)) - s


def _threshold_proj_simplex(bisect, x, s=1.0):
    return bisect.run(x, s)


def _projection_simplex_bisect(bisect, x, s=1.0):
    return jnp.maximum(x - _threshold_proj_simplex(bisect, x, s), 0)


def _projection_simplex_bisect_setup(x, s=1.0):
    upper = jax.lax.stop_gradient(jnp.max(x))
    lower = jax.lax.stop_gradient(jnp.min(x)) - s / len(x)
    return Bisection(_optimality_fun_proj_simplex, lower=lower, upper=upper)


if __name__ == "__main__":
    x = jnp.array(onp.random.RandomState(0).randn(10).astype(onp.float32))
    jitted_fun = jax.jit(_projection_simplex_bisect, static_argnums=0)
    bisect = _projection_simplex_bisect_setup(x)
    print(jitted_fun(bisect, x).sum())
    J3 = jax.jacrev(jitted_fun, argnums=1)(bisect, x)
    print(J3.shape)
