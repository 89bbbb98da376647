# source: https://github.com/tristanmanchester/tomojax/commit/0e30170ec3aecea8f34c98b7d2b01bb381cb00fc
# category: A
# expect: raises
# via: lax-scan, grad, jit-call, factory-closure, vmap
# sink: shape-from-value
"""The batched data term padded the views to a multiple of the batch size with a pad width built
from `jnp.int32` scalars; once the FISTA step is jitted those scalars are tracers, and
`jnp.pad` cannot take a traced pad width."""
import jax
import jax.numpy as jnp


def forward_project_view_T(T, vol):
    # stands in for the ray-marching projector: a pose-scaled sum along the beam axis
    return T[0, 0] * vol.sum(axis=0) + T[0, 3]


def grad_data_term(T_all, projections, x, *, views_per_batch=None):
    def batched_loss(vol):
        vm_project = jax.vmap(forward_project_view_T, in_axes=(0, None))
        n = jnp.int32(T_all.shape[0])
        b_py = int(views_per_batch) if (views_per_batch is not None and int(views_per_batch) > 0) else int(n)
        b = jnp.int32(b_py)
        m = jnp.int32((n + b - 1) // b)

        pad = jnp.int32(m * b - n)
        T_pad = jnp.pad(T_all, ((0, pad), (0, 0), (0, 0)))  # <-- bug
        y_pad = jnp.pad(projections, ((0, pad), (0, 0), (0, 0)))

        def body(loss_acc, i):
            i = jnp.int32(i)
            start = i * b
            T_chunk = jax.lax.dynamic_slice(T_pad, (start, 0, 0), (b, 4, 4))
            y_chunk = jax.lax.dynamic_slice(y_pad, (start, 0, 0), (b, projections.shape[1], projections.shape[2]))
            pred = vm_project(T_chunk, vol)
            remaining = jnp.maximum(0, n - start)
            valid = jnp.minimum(b, remaining)
            mask = (jnp.arange(b) < valid)[:, None, None]
            resid = (pred - y_chunk).astype(jnp.float32) * mask
            return loss_acc + 0.5 * jnp.vdot(resid, resid).real, None

        loss_tot, _ = jax.lax.scan(body, jnp.float32(0.0), jnp.arange(m))
        return loss_tot

    val, grad = jax.value_and_grad(batched_loss)(x)
    return grad, val


if __name__ == "__main__":
    n_views, nx, nv, nu = 5, 4, 6, 6
    T_all = jnp.tile(jnp.eye(4), (n_views, 1, 1)) * jnp.linspace(0.5, 1.5, n_views)[:, None, None]
    truth = jnp.ones((nx, nv, nu))
    projections = jax.vmap(forward_project_view_T, in_axes=(0, None))(T_all, truth)

    @jax.jit
    def fista_step(x):
        g, loss = grad_data_term(T_all, projections, x, views_per_batch=2)
        return x - 1e-3 * g, loss

    x = jnp.zeros((nx, nv, nu))
    for _ in range(3):
        x, loss = fista_step(x)
    print(loss)
