# source: https://github.com/jkitchin/pounce/issues/795
# category: A
# expect: ok
# via: helper, jit-call, factory-closure
# sink: int-float-bool
"""The fix coerces the bounds to host NumPy arrays before the finiteness test, so the entries
are concrete floats even when the caller passes jnp arrays into a jitted model."""
import jax
import jax.numpy as jnp
import numpy as np


def _expand_bounds(n, G, h, lb, ub):
    lb = None if lb is None else np.asarray(lb)
    ub = None if ub is None else np.asarray(ub)
    rows, rhs = [], []
    for i in range(n):
        if ub is not None and np.isfinite(float(ub[i])):
            e = np.zeros(n)
            e[i] = 1.0
            rows.append(e)
            rhs.append(float(ub[i]))
        if lb is not None and np.isfinite(float(lb[i])):
            e = np.zeros(n)
            e[i] = -1.0
            rows.append(e)
            rhs.append(-float(lb[i]))
    if not rows:
        return G, h
    G_box, h_box = jnp.asarray(np.stack(rows)), jnp.asarray(np.array(rhs))
    if G is None:
        return G_box, h_box
    return jnp.concatenate([G, G_box]), jnp.concatenate([h, h_box])


def solve_qp(P, q, G=None, h=None, lb=None, ub=None, rho=100.0):
    """Penalised solve of min 1/2 x'Px + q'x  s.t.  Gx <= h."""
    n = q.shape[0]
    G, h = _expand_bounds(n, G, h, lb, ub)
    x = jnp.linalg.solve(P, -q)
    for _ in range(20):
        active = (G @ x > h).astype(x.dtype)
        A = P + rho * (G.T * active) @ G
        x = jnp.linalg.solve(A, -q + rho * (G.T * active) @ h)
    return x


if __name__ == "__main__":
    P = jnp.eye(3) * 2.0
    lb = jnp.array([-1.0, -jnp.inf, 0.0])
    ub = jnp.array([1.0, 0.5, jnp.inf])

    @jax.jit
    def layer(q):
        return solve_qp(P, q, lb=lb, ub=ub)

    print(layer(jnp.array([-4.0, -3.0, 1.0])))
