# source: https://github.com/google/TensorNetwork/commit/6b05378f8308d3201e3ebf369107b0cd339cab3e
# category: B
# expect: raises
# via: partial-jit, static-argnums, lax-while, helper, jit-decorator
# sink: static-array
"""TensorNetwork's jitted GMRES helpers marked `tol` (and the step index `k`) as static, but both
travel in the carry of the `lax.while_loop` that drives the Krylov iteration, so inside the loop
they are tracers: `kth_arnoldi_step(..., tol)` hands jit a traced static argument, which cannot be
hashed.  The commit stopped treating `tol` and `k` as static.  (GMRES is reduced to its Arnoldi
loop.)"""
import functools

import jax
import jax.numpy as jnp


def _gs_step(r, v_i):
    h_i = jnp.vdot(v_i, r)
    return r - h_i * v_i, h_i


@functools.partial(jax.jit, static_argnums=(5,))
def kth_arnoldi_step(k, A_mv, A_args, V, H, tol):
    v = A_mv(V[:, k], *A_args)
    v_new, H_k = jax.lax.scan(_gs_step, v, xs=V.T)
    v_norm = jnp.linalg.norm(v_new)
    r_new = jnp.where(v_norm > tol, v_new / v_norm, v_new)
    H = H.at[:, k].set(H_k).at[k + 1, k].set(v_norm)
    V = V.at[:, k + 1].set(r_new)
    return V, H


@functools.partial(jax.jit, static_argnums=(2,))
def gmres_krylov(A_mv, A_args, n_kry, r, beta, tol):
    n = r.size
    V = jnp.zeros((n, n_kry + 1), dtype=r.dtype).at[:, 0].set(r / beta)
    H = jnp.zeros((n_kry + 1, n_kry), dtype=r.dtype)

    def work(carry):
        (k, V, H), (tol, A_mv, A_args) = carry
        V, H = kth_arnoldi_step(k, A_mv, A_args, V, H, tol)  # <-- bug
        return (k + 1, V, H), (tol, A_mv, A_args)

    def condition(carry):
        (k, V, H), (tol, _, _) = carry
        return (k < n_kry) & ((k == 0) | (H[k, k - 1] >= tol))

    (k, V, H), _ = jax.lax.while_loop(condition, work, ((0, V, H), (tol, A_mv, A_args)))
    return k, V, H


def matvec(x, A):
    return A @ x


if __name__ == "__main__":
    A = jnp.diag(jnp.arange(1.0, 7.0)) + 0.1 * jnp.ones((6, 6))
    r = jnp.ones(6)
    A_mv = jax.tree_util.Partial(matvec)
    k, V, H = gmres_krylov(A_mv, [A], 4, r, jnp.linalg.norm(r), 1e-6)
    print(k, jnp.round(H, 3))
