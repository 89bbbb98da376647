# source: https://github.com/uwplasma/sfincs_jax/commit/7dd18eb91f89301133cc34a4a2b976e9d32713d8
# category: A
# expect: ok
# via: jit-decorator, pytree-class, dataclass, method, helper, lax-while
# sink: shape-from-value
"""The CSR matrix-vector product expanded row pointers into row ids with
`jnp.repeat(arange, counts)`; the fix passes `total_repeat_length=nnz`, taken from the static
length of the data array, so the row ids keep a fixed shape inside the jitted GMRES solve."""
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
from jax import tree_util as jtu
from jax.scipy.sparse.linalg import gmres


def csr_matvec(*, data, indices, indptr, x, n_rows=None):
    if n_rows is None:
        n_rows = int(indptr.shape[0] - 1)
    if int(indptr.shape[0]) != n_rows + 1:
        raise ValueError("indptr has incompatible length")
    counts = indptr[1:] - indptr[:-1]
    nnz = int(data.shape[0])
    row_ids = jnp.repeat(
        jnp.arange(n_rows, dtype=indices.dtype), counts, total_repeat_length=nnz
    )
    y_vals = data * x[indices]
    return jax.ops.segment_sum(y_vals, row_ids, n_rows)


@jtu.register_pytree_node_class
@dataclass(frozen=True)
class CSRMatrix:
    data: jnp.ndarray
    indices: jnp.ndarray
    indptr: jnp.ndarray

    def tree_flatten(self):
        return (self.data, self.indices, self.indptr), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    def matvec(self, x):
        return csr_matvec(data=self.data, indices=self.indices, indptr=self.indptr, x=x)


@jax.jit
def solve(a, b):
    x, _ = gmres(a.matvec, b, tol=1e-10, restart=8, maxiter=4)
    return x, jnp.linalg.norm(b - a.matvec(x))


if __name__ == "__main__":
    dense = np.diag(np.full(6, 4.0)) + np.diag(np.ones(5), 1) + np.diag(np.ones(5), -1)
    rows, cols = np.nonzero(dense)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=6))]).astype(np.int32)
    a = CSRMatrix(jnp.asarray(dense[rows, cols]), jnp.asarray(cols, dtype=jnp.int32), jnp.asarray(indptr))
    x, res = solve(a, jnp.arange(1.0, 7.0))
    print(np.round(np.asarray(x), 3), bool(res < 1e-4))
