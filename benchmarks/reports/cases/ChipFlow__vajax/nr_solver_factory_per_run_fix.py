# source: https://github.com/ChipFlow/vajax/issues/17
# category: R
# expect: ok
# via: method, factory-closure, jit-call, lax-while, host-loop
# sink: fresh-callable
"""The circuit engine asked `make_dense_full_mna_solver` for a Newton-Raphson solver every time an
analysis ran; here the built solver is cached on the engine under a structural key (node and
source counts), so later runs of the same circuit reuse the compiled while-loop solver.
(The MNA stamping is reduced to a small nonlinear resistor network.)"""
import jax
import jax.numpy as jnp
from jax import lax

MAX_NR_ITERATIONS = 50


def make_dense_full_mna_solver(build_system_jit, n_nodes, n_vsources, abstol=1e-9):
    n_unknowns = n_nodes - 1

    def nr_solve(X_init, vsource_vals):
        def cond_fn(state):
            _, iteration, converged = state
            return jnp.logical_and(~converged, iteration < MAX_NR_ITERATIONS)

        def body_fn(state):
            X, iteration, _ = state
            J, f = build_system_jit(X, vsource_vals)
            delta = jnp.linalg.solve(J, -f)
            X_new = X.at[1:].add(delta)
            return X_new, iteration + 1, jnp.max(jnp.abs(f)) < abstol

        init = (X_init, jnp.array(0, dtype=jnp.int32), jnp.array(False))
        X_final, iterations, converged = lax.while_loop(cond_fn, body_fn, init)
        return X_final, iterations, converged

    return jax.jit(nr_solve)


class CircuitEngine:
    def __init__(self, conductances):
        self.g = conductances
        self.n_nodes = conductances.shape[0] + 1
        self.n_vsources = 1
        self._solver_cache = {}

    def build_system(self, X, vsource_vals):
        V = X[1:]
        i_nl = 1e-3 * jnp.tanh(V)
        f = self.g @ V + i_nl - vsource_vals[0] * jnp.eye(V.shape[0])[0]
        J = self.g + jnp.diag(1e-3 / jnp.cosh(V) ** 2)
        return J, f

    def _get_solver(self):
        key = (self.n_nodes, self.n_vsources)
        if key not in self._solver_cache:
            self._solver_cache[key] = make_dense_full_mna_solver(
                self.build_system, self.n_nodes, self.n_vsources)
        return self._solver_cache[key]

    def run_dc(self, vsource_vals):
        nr_solve = self._get_solver()
        X0 = jnp.zeros(self.n_nodes)
        return nr_solve(X0, vsource_vals)


if __name__ == "__main__":
    g = jnp.array([[2.0, -1.0, 0.0], [-1.0, 2.0, -1.0], [0.0, -1.0, 2.0]])
    engine = CircuitEngine(g)
    for vdd in (0.5, 1.0, 1.5, 1.8):
        X, iters, ok = engine.run_dc(jnp.array([vdd]))
        print(vdd, [round(float(v), 5) for v in X], int(iters), bool(ok))
