# source: https://github.com/tristanmanchester/tomojax/commit/0e30170ec3aecea8f34c98b7d2b01bb381cb00fc
# category: A
# expect: ok
# via: lax-scan, grad, jit-call, factory-closure, vmap
# sink: shape-from-value
"""The batched data term keeps its sizes as Python ints and takes fixed-size, end-aligned dynamic
slices with a static-length scan instead of padding, so the jitted FISTA step traces."""
import jax
import jax.numpy as jnp


def forward_project_view_T(T, vol):
    # stands in for the ray-marching projector: a pose-scaled sum along the beam axis
    return T[0, 0] * vol.sum(axis=0) + T[0, 3]


def grad_data_term(T_all, projections, x, *, views_per_batch=None):
    def batched_loss(vol):
        vm_project = jax.vmap(forward_project_view_T, in_axes=(0, None))
        n = int(T_all.shape[0])
        nv, nu = int(projections.shape[1]), int(projections.shape[2])
        b = int(views_per_batch) if (views_per_batch is not None and int(views_per_batch) > 0) else n
        m = (n + b - 1) // b

        def body(loss_acc, i):
            i = jnp.int32(i)
            start = i * jnp.int32(b)
            remaining = jnp.maximum(0, jnp.int32(n) - start)
            valid = jnp.minimum(jnp.int32(b), remaining)
            shift = jnp.int32(b) - valid
            start_shifted = jnp.maximum(0, start - shift)
            T_chunk = jax.lax.dynamic_slice(T_all, (start_shifted, 0, 0), (b, 4, 4))
            y_chunk = jax.lax.dynamic_slice(projections, (start_shifted, 0, 0), (b, nv, nu))
            pred = vm_project(T_chunk, vol)
            mask = (jnp.arange(b) >= (jnp.int32(b) - valid))[:, None, None]
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
