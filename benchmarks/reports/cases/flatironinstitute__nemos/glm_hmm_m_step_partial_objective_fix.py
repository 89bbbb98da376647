# source: https://github.com/flatironinstitute/nemos/commit/4b6c421c630f5077fab519aa1797d77857eb34d1
# category: R
# expect: ok
# via: jit-call, method, factory-closure, lax-fori, host-loop
# sink: fresh-callable
"""In nemos' GLM-HMM, the EM loop's M-step built a new `functools.partial` of the negative
log-likelihood on every iteration and handed it to a fresh jaxopt LBFGS solver, so the solver's
compiled loop was traced and compiled again at each EM iteration.  The fix jits `run_m_step`
once, with the link and likelihood callables as static arguments."""
from functools import partial

import jax
import jax.numpy as jnp


class LBFGS:
    """Reduced jaxopt solver: `run` is compiled for the objective it was built with."""

    def __init__(self, fun, maxiter=20, stepsize=0.1):
        self.fun, self.maxiter, self.stepsize = fun, maxiter, stepsize
        self._jit_run = jax.jit(self._run)

    def _run(self, init_params):
        grad = jax.grad(self.fun)
        body = lambda i, w: w - self.stepsize * grad(w)
        params = jax.lax.fori_loop(0, self.maxiter, body, init_params)
        return params, self.fun(params)

    def run(self, init_params):
        return self._jit_run(init_params)


def hmm_negative_log_likelihood(projection_weights, X, y, gammas, n_states, inverse_link_function, negative_log_likelihood_func):
    tmpy = inverse_link_function(X @ projection_weights)
    nll = negative_log_likelihood_func(y, tmpy)
    return jnp.sum(nll * gammas)


def poisson_nll(y, rate):
    return rate - y * jnp.log(rate)


@partial(jax.jit, static_argnames=("negative_log_likelihood_func", "inverse_link_function"))
def run_m_step(X, y, gammas, projection_weights, negative_log_likelihood_func, inverse_link_function):
    n_states = projection_weights.shape[1]
    def partial_hmm_negative_log_likelihood(w):
        return hmm_negative_log_likelihood(
            w, X=X, y=y, gammas=gammas, n_states=n_states,
            inverse_link_function=inverse_link_function,
            negative_log_likelihood_func=negative_log_likelihood_func,
        )

    solver = LBFGS(partial_hmm_negative_log_likelihood)
    return solver.run(projection_weights)


def e_step(X, y, projection_weights):
    ll = -poisson_nll(y, jnp.exp(X @ projection_weights))
    return jax.nn.softmax(ll, axis=1)


if __name__ == "__main__":
    X = jax.random.normal(jax.random.PRNGKey(0), (50, 3))
    y = jax.random.poisson(jax.random.PRNGKey(1), 2.0, (50, 1)).astype(jnp.float32)
    w = 0.01 * jnp.ones((3, 2))
    for em_iter in range(3):
        gammas = e_step(X, y, w)
        w, nll = run_m_step(X, y, gammas, w, poisson_nll, jnp.exp)
        print(em_iter, round(float(nll), 4))
