# source: https://github.com/scverse/cellrank/pull/363
# category: R
# expect: ok
# via: jit-decorator, grad, helper, host-loop
# sink: changing-shape
"""The stochastic velocity kernel takes the Hessian of a jitted transition-probability function
once per cell, with that cell's neighbourhood matrix `W`; cells have different numbers of
neighbours, so nearly every cell traces and compiles the function again.  The pull request
sorts the cells by neighbour count and pads `W` to a shared size, slicing the result back."""
import jax.numpy as jnp
import numpy as np
from jax import hessian, jit


@jit
def _predict_transition_probabilities_jax(X, W, softmax_scale=1):
    W -= W.mean(axis=1)[:, None]
    X -= X.mean()
    denom = jnp.linalg.norm(X) * jnp.linalg.norm(W, axis=1)
    mask = jnp.isclose(denom, 0)
    denom = jnp.where(mask, 1, denom)
    numerator = W.dot(X) / denom * softmax_scale
    numerator = jnp.exp(numerator - jnp.nanmax(numerator))
    numerator = jnp.where(mask, 0, numerator)
    return numerator / jnp.nansum(numerator)


_predict_transition_probabilities_jax_H = hessian(_predict_transition_probabilities_jax)


def _run_stochastic(ixs, neighbours, expression, expectation, variance, softmax_scale=1.0):
    out = {}
    max_n = max(len(n) for n in neighbours)
    for ix in ixs:
        nbhs_ixs = neighbours[ix]
        v = expectation[ix]
        W = expression[nbhs_ixs, :] - expression[ix, :]
        W_size = W.shape[0]
        if max_n - W_size >= 10:
            max_n -= 10
        W_padded = np.pad(W, [(0, max_n - W_size), (0, 0)])
        H = _predict_transition_probabilities_jax_H(v, jnp.asarray(W_padded), softmax_scale=softmax_scale)[:W_size]
        H_diag = np.array([np.diag(h) for h in H])
        out[ix] = 0.5 * H_diag.dot(variance[ix])
    return [out[ix] for ix in sorted(out)]


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    n_cells, n_genes = 30, 4
    expression = rng.normal(size=(n_cells, n_genes)).astype(np.float32)
    expectation = rng.normal(size=(n_cells, n_genes)).astype(np.float32)
    variance = rng.uniform(size=(n_cells, n_genes)).astype(np.float32)
    neighbours = [rng.choice(n_cells, size=k, replace=False) for k in [12, 15, 11, 15, 13, 14]]
    ixs = np.argsort([len(n) for n in neighbours])[::-1]  # keep the descending order
    for ix, p2 in enumerate(_run_stochastic(ixs, neighbours, expression, expectation, variance)):
        print(ix, np.round(p2.sum(), 4))
