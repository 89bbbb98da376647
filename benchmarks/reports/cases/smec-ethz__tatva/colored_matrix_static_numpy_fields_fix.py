# source: https://github.com/smec-ethz/tatva/issues/33
# category: B
# expect: ok
# via: dataclass, pytree-class, jit-call, helper, host-loop
# sink: static-metadata
"""tatva after the fix (commit ac51668): `indptr`, `indices` and `colors` are dynamic JAX
arrays of `ColoredMatrix`, and only the shape stays static metadata."""
from dataclasses import dataclass, field, replace
from functools import partial

import jax
import jax.experimental.sparse as jsp
import jax.numpy as jnp
import numpy as np
import scipy.sparse as sp
from jax.tree_util import register_dataclass


def distance2_colors(indptr, indices, n):
    """Greedy distance-2 colouring of the CSR graph."""
    colors = -np.ones(n, dtype=np.int32)
    for i in range(n):
        nbrs = set(indices[indptr[i]:indptr[i + 1]])
        for j in list(nbrs):
            nbrs.update(indices[indptr[j]:indptr[j + 1]])
        used = {colors[j] for j in nbrs if colors[j] >= 0}
        c = 0
        while c in used:
            c += 1
        colors[i] = c
    return colors


@register_dataclass
@dataclass(frozen=True)
class ColoredMatrix:
    data: jax.Array = field(repr=False)
    indptr: jax.Array = field(repr=False)
    indices: jax.Array = field(repr=False)
    shape: tuple = field(metadata=dict(static=True))
    colors: jax.Array = field(repr=False)

    @classmethod
    def from_csr(cls, csr_matrix, colors=None):
        indptr = csr_matrix.indptr
        indices = csr_matrix.indices
        if colors is None:
            colors = distance2_colors(indptr, indices, csr_matrix.shape[0])
        return cls(
            data=jnp.asarray(csr_matrix.data, dtype=jnp.float32),
            indptr=jnp.asarray(indptr),
            indices=jnp.asarray(indices),
            shape=csr_matrix.shape,
            colors=jnp.asarray(colors),
        )

    def to_bcoo(self):
        n_dofs = self.shape[0]
        diffs = jnp.diff(self.indptr)
        rows = jnp.repeat(jnp.arange(n_dofs), diffs, total_repeat_length=self.indices.shape[0])
        indices = jnp.stack([rows, self.indices], axis=1)
        return jsp.BCOO((self.data, indices), shape=(n_dofs, n_dofs))

    def to_dense(self):
        return self.to_bcoo().todense()


def jacfwd(fn, colored_matrix, *, color_batch_size):
    nb_colors = int(colored_matrix.colors.max()) + 1
    _indptr = colored_matrix.indptr
    _indices = colored_matrix.indices
    _colors = colored_matrix.colors
    diffs = jnp.diff(_indptr)
    rows = jnp.repeat(jnp.arange(_indptr.shape[0] - 1), diffs, total_repeat_length=_indices.shape[0])
    col_colors = _colors[_indices]

    def _wrapped_jacfwd(u, *args, **kwargs):
        J_compressed = colored_jacobian_batch(fn, u, _colors, args, kwargs, nb_colors, color_batch_size)
        data = recover_matrix_data(J_compressed, rows, col_colors)
        return replace(colored_matrix, data=data)

    return _wrapped_jacfwd


@partial(jax.jit, static_argnames=["fn", "n_colors", "color_batch_size"])
def colored_jacobian_batch(fn, x, colors, args, kwargs, n_colors, color_batch_size=1):
    def compute_single_jvp(color_id):
        seed = jnp.where(colors == color_id, 1.0, 0.0).astype(x.dtype)
        _, jvp_out = jax.jvp(lambda u: fn(u, *args, **kwargs), (x,), (seed,))
        return jvp_out

    J_rows = jax.lax.map(compute_single_jvp, jnp.arange(n_colors), batch_size=color_batch_size)
    return J_rows.T


@jax.jit
def recover_matrix_data(J_compressed, coo_rows, col_colors):
    return J_compressed[coo_rows, col_colors]


def create_sparsity_pattern(n_dofs):
    """Pattern of a 1D linear-element mesh: each dof couples to its neighbours."""
    return sp.diags([np.ones(n_dofs - 1), np.ones(n_dofs), np.ones(n_dofs - 1)], [-1, 0, 1], format="csr")


def residual(u, load):
    lap = jnp.concatenate([u[:1] * 2 - u[1:2], 2 * u[1:-1] - u[:-2] - u[2:], u[-1:] * 2 - u[-2:-1]])
    return lap + 0.1 * u**3 - load


@jax.jit
def newton_update(K, r):
    return -jnp.linalg.solve(K.to_dense(), r)


if __name__ == "__main__":
    n_dofs = 12
    u = jnp.zeros(n_dofs, dtype=jnp.float32)
    for step, scale in enumerate([0.5, 1.0]):
        load = scale * jnp.ones(n_dofs, dtype=jnp.float32)
        # each load step sets up its sparse tangent from the mesh pattern
        K_pattern = ColoredMatrix.from_csr(create_sparsity_pattern(n_dofs))
        tangent = jacfwd(residual, K_pattern, color_batch_size=1)
        for it in range(8):
            K = tangent(u, load)
            u = u + newton_update(K, residual(u, load))
        print(step, float(jnp.abs(residual(u, load)).max()) < 1e-4, float(u[n_dofs // 2]))
