# source: https://github.com/sm00thix/ikpls/pull/32
# category: B
# expect: raises
# via: jit-decorator, partial-jit, static-argnums, method, lax-fori
# sink: static-unhashable
"""IKPLS jitted `_step_3` with `static_argnums=(0, 1)`, making the component number `i` static,
but the fit's main loop is a `lax.fori_loop` whose index is traced; each call hashes the loop
index as a static argument (a deprecation warning then, an error now).  The pull request stopped
treating `i` as static."""
from functools import partial

import jax
import jax.numpy as jnp


class PLS:
    def __init__(self, verbose=False):
        self.verbose = verbose
        self.name = "Improved Kernel PLS Algorithm #1"

    @partial(jax.jit, static_argnums=(0, 1))
    def _step_3(self, i, w, P, R):
        r = jnp.copy(w)
        r, P, w, R = jax.lax.fori_loop(0, i, self._step_3_body, (r, P, w, R))
        return r

    @partial(jax.jit, static_argnums=0)
    def _step_3_body(self, j, carry):
        r, P, w, R = carry
        r = r - P[j].reshape(-1, 1).T @ w * R[j].reshape(-1, 1)
        return r, P, w, R

    @partial(jax.jit, static_argnums=(0, 3))
    def stateless_fit(self, X, Y, A):
        XTX, XTY = X.T @ X, X.T @ Y
        K = X.shape[1]
        W, P, R = jnp.zeros((A, K)), jnp.zeros((A, K)), jnp.zeros((A, K))

        def _main_loop_body(i, carry):
            XTY, W, P, R = carry
            w = XTY / jnp.linalg.norm(XTY)
            r = self._step_3(i, w, P, R)  # <-- bug
            rXTX = r.T @ XTX
            tTt = rXTX @ r
            p = rXTX.T / tTt
            q = (r.T @ XTY).T / tTt
            XTY = XTY - (p @ q.T) * tTt
            return XTY, W.at[i].set(w[:, 0]), P.at[i].set(p[:, 0]), R.at[i].set(r[:, 0])

        XTY, W, P, R = jax.lax.fori_loop(0, A, _main_loop_body, (XTY, W, P, R))
        return W, P, R


if __name__ == "__main__":
    X = jax.random.normal(jax.random.PRNGKey(0), (50, 6))
    Y = X @ jnp.arange(1.0, 7.0).reshape(-1, 1) + 0.1
    W, P, R = PLS().stateless_fit(X, Y, 4)
    print(W.shape, float(jnp.abs(R).sum()))
