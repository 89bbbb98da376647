# source: https://github.com/scverse/cellrank/pull/363
# category: R
# expect: ok
# via: jit-decorator, grad, helper, host-loop
# sink: changing-shape
"""The stochastic velocity kernel takes the Hessian of the jitted transition-probability function
for every cell; here cells are visited by descending neighbour count and each cell's neighbour
differences `W` are zero-padded to a shared row count that only steps down in blocks of ten, and
the Hessian is sliced back to the cell's neighbours, so the function compiles once."""
import numpy as np
import jax.numpy as jnp
from jax import jit, hessian


@jit
def _predict_transition_probabilities_jax(X, W, softmax_scale=1):
    W = jnp.asarray(W)
    W -= W.mean(axis=1)[:, None]
    X -= X.mean()
    W_norm = jnp.linalg.norm(W, axis=1)
    X_norm = jnp.linalg.norm(X)
    denom = X_norm * W_norm
    mask = jnp.isclose(denom, 0)
    denom = jnp.where(jnp.isclose(denom, 0), 1, denom)
    x = W.dot(X) / denom
    numerator = x * softmax_scale
    numerator = jnp.exp(numerator - jnp.nanmax(numerator))
    numerator = jnp.where(mask, 0, numerator)
    return numerator / jnp.nansum(numerator)


_predict_transition_probabilities_jax_H = hessian(_predict_transition_probabilities_jax)


def _predict_transition_probabilities_numpy(X, W, softmax_scale=1):
    W = W - W.mean(axis=1)[:, None]
    X = X - X.mean()
    denom = np.linalg.norm(X) * np.linalg.norm(W, axis=1)
    denom[denom == 0] = 1
    cor = W.dot(X[0]) / denom
    e = np.exp(cor * softmax_scale - np.max(cor * softmax_scale))
    return e / e.sum(), cor


def _run_stochastic(ixs, indices, indptr, expression, expectation, variance, softmax_scale=1):
    out = []
    max_n = np.max(np.diff(indptr))
    for ix in ixs:
        start, end = indptr[ix], indptr[ix + 1]
        nbhs_ixs = indices[start:end]
        v = expectation[ix]
        W = expression[nbhs_ixs, :] - expression[ix, :]
        W_size = W.shape[0]
        if max_n - W_size >= 10:
            max_n -= 10
        W_padded = np.pad(W, [(0, max_n - W_size), (0, 0)])
        H = _predict_transition_probabilities_jax_H(v, W_padded, softmax_scale=softmax_scale)[:W_size]
        H_diag = np.array([np.diag(h) for h in H])
        p_0, c = _predict_transition_probabilities_numpy(v[None, :], W, softmax_scale=softmax_scale)
        p = np.clip(p_0 + 0.5 * H_diag.dot(variance[ix]), 0, 1)
        out.append((ix, float(p.sum()), float(c.mean())))
    return out


def _run_in_parallel(fn, indices, indptr, **kwargs):
    ixs = np.argsort(np.diff(indptr))[::-1]  # keep the descending order
    return fn(ixs, indices, indptr, **kwargs)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    n_cells, n_genes = 40, 5
    n_neighbors = [30, 28, 27, 25, 23, 30]
    indptr = np.concatenate([[0], np.cumsum(n_neighbors)])
    indices = np.concatenate([rng.choice(n_cells, n, replace=False) for n in n_neighbors])
    expression = rng.normal(size=(n_cells, n_genes)).astype(np.float32)
    expectation = rng.normal(size=(n_cells, n_genes)).astype(np.float32)
    variance = rng.uniform(0.01, 0.1, size=(n_cells, n_genes)).astype(np.float32)
    for ix, p_sum, c_mean in _run_in_parallel(_run_stochastic, indices, indptr, expression=expression,
                                              expectation=expectation, variance=variance):
        print(ix, round(p_sum, 4), round(c_mean, 4))
