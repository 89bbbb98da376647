# source: https://github.com/jax-ml/jax/issues/5344
# category: C
# expect: raises
# via: method, static-argnums, vmap, jit-call
# sink: attribute-write
"""A hand-written Gaussian process cached the training inputs, the Cholesky factor of the kernel
matrix and K^-1 y on `self` inside `fit`.  With `fit` jitted (self static), those attributes hold
tracers of the finished trace, and the vmapped predictive mean then fails on them."""
from functools import partial

import jax.numpy as jnp
from jax import jit, vmap
from jax.scipy.linalg import cho_solve


class RBF:
    def __init__(self, length_scale=1.0):
        self.length_scale = length_scale

    def __call__(self, a, b):
        return jnp.exp(-0.5 * jnp.sum((a - b) ** 2) / self.length_scale**2)


class GP:
    def __init__(self, alpha=1e-2, kernel=RBF(), debug=True):
        self.alpha = alpha
        self.kernel = kernel
        self.x = None
        self.y = None
        self.U = None
        self.alpha_vec = None
        self.predict_mu = vmap(self.predict_)
        if debug is False:
            self.fit = jit(self.fit)

    def gram(self, a, b):
        return vmap(lambda ai: vmap(lambda bj: self.kernel(ai, bj))(b))(a)

    def fit(self, x, y):
        K = self.gram(x, x) + self.alpha * jnp.eye(x.shape[0])
        self.x, self.y = x, y  # <-- bug
        self.U = jnp.linalg.cholesky(K)  # <-- bug
        self.alpha_vec = cho_solve((self.U, True), y)  # <-- bug


    def predict_(self, x_star):
        k_star = vmap(lambda xi: self.kernel(xi, x_star))(self.x)
        return k_star @ self.alpha_vec


if __name__ == "__main__":
    x = jnp.linspace(0.0, 5.0, 8)[:, None]
    y = jnp.sin(x[:, 0])
    gp = GP(debug=False)
    gp.fit(x, y)
    print(jnp.round(gp.predict_mu(jnp.array([[1.0], [2.5]])), 4))  # <-- bug
