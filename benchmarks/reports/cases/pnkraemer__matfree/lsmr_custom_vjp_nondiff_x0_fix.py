# source: https://github.com/pnkraemer/matfree/pull/252
# category: B
# expect: ok
# via: custom-vjp, factory-closure, jit-decorator, grad
# sink: static-metadata
"""matfree's `lsmr` wraps its solver in `custom_vjp(..., nondiff_argnums=(0, 3, 4))`, marking
the initial guess `x0` and the damping `damp` as non-differentiable along with the matvec.
Once the test jits the least-squares call, `x0` and `damp` arrive as tracers in nondiff
positions, which custom_vjp refuses.  The PR keeps only the matvec in nondiff_argnums and
returns None cotangents for x0 and damp.  (The LSMR iteration is reduced to a damped
normal-equations solve.)"""
import jax
import jax.numpy as jnp


def _solve(vecmat, b, vecmat_args, x0, damp):
    A = jax.vmap(lambda e: vecmat(e, *vecmat_args))(jnp.eye(b.shape[0]))
    gram = A.T @ A + damp**2 * jnp.eye(A.shape[1])
    x = jnp.linalg.solve(gram, A.T @ b - A.T @ (A @ x0)) + x0
    return x, {"residual": jnp.linalg.norm(A @ x - b)}


def lsmr(*, atol=1e-6, btol=1e-6, custom_vjp=True):
    def run(vecmat, b, *vecmat_args, x0=None, damp=0.0):
        x_like = jax.eval_shape(vecmat, b, *vecmat_args)
        (ncols,) = x_like.shape
        x = x0 if x0 is not None else jnp.zeros(ncols, dtype=b.dtype)
        vecmat_closure, args = jax.closure_convert(lambda s: vecmat(s, *vecmat_args), b)
        return _run(vecmat_closure, b, args, x, damp)

    def _run(vecmat, b, vecmat_args, x0, damp):
        return _solve(vecmat, b, vecmat_args, x0, damp)

    if custom_vjp:
        _run = _lstsq_custom_vjp(_run)
    return run


def _lstsq_custom_vjp(lstsq_fun):
    def lstsq_fwd(vecmat, b, vecmat_args, x0, damp):
        x, stats = lstsq_fun(vecmat, b, vecmat_args, x0, damp)
        return (x, stats), {"rhs": b, "vecmat_args": vecmat_args, "x0": x0, "damp": damp}

    def lstsq_rev(vecmat, cache, dmu_dx):
        dmu_dx, _ = dmu_dx
        x0, damp = cache["x0"], cache["damp"]
        _, vjp = jax.vjp(
            lambda b, args: _solve(vecmat, b, args, x0, damp)[0],
            cache["rhs"], cache["vecmat_args"],
        )
        return (*vjp(dmu_dx), None, None)

    lstsq_fun = jax.custom_vjp(lstsq_fun, nondiff_argnums=(0,))
    lstsq_fun.defvjp(lstsq_fwd, lstsq_rev)
    return lstsq_fun


def vecmat(vector, p_as_list):
    [p] = p_as_list
    return p.T @ vector


@jax.jit
def lstsq_matfree(rhs, params, x0):
    solver = lsmr(atol=1e-5, btol=1e-5)
    sol, _ = solver(vecmat, rhs, params, x0=x0)
    return jnp.sum(sol**2)


if __name__ == "__main__":
    key_a, key_b = jax.random.split(jax.random.PRNGKey(1))
    A = jax.random.normal(key_a, (6, 3))
    rhs = jax.random.normal(key_b, (6,))
    x0 = jnp.zeros(3)
    value, grads = jax.value_and_grad(lstsq_matfree, argnums=(0, 1))(rhs, [A], x0)
    print(value, grads[0], grads[1][0])
