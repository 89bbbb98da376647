# source: https://github.com/jkitchin/pounce/issues/795
# category: A
# expect: raises
# via: helper, jit-call, factory-closure
# sink: int-float-bool
"""pounce.jax.solve_qp folds finite box bounds into G/h with a helper that tests each entry with
np.isfinite(float(ub[i])); with lb/ub given as jnp arrays inside a jitted model, ub[i] is staged
into the trace and float() on it raises ConcretizationTypeError."""
import jax
import jax.numpy as jnp
import numpy as np


def _expand_bounds(n, G, h, lb, ub):
    rows, rhs = [], []
    for i in range(n):
        if ub is not None and np.isfinite(float(ub[i])):  # <-- bug
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
