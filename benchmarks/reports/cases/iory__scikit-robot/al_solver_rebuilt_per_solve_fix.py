# source: https://github.com/iory/scikit-robot/issues/871
# category: R
# expect: ok
# via: method, factory-closure, jit-decorator, jit-call, grad, lax-fori, host-loop
# sink: fresh-callable
"""The trajectory solver's `solve` builds its jitted inner loop (and, through `_build_functions`,
jitted closures over the robot's FK arrays) afresh, and its cache lives on the solver instance;
a planner that makes a new solver for every request therefore compiles everything again on
each solve of the same problem.  The fix keeps one module-level cache of compiled functions
that take the FK arrays as a runtime argument."""
import jax
import jax.numpy as jnp

_JIT_CACHE = {}


class TrajectoryProblem:
    def __init__(self, n_waypoints, link_lengths, obstacle):
        self.n_waypoints = n_waypoints
        self.link_lengths = link_lengths
        self.obstacle = obstacle


class AugmentedLagrangianSolver:
    def __init__(self, max_outer_iterations=3, max_inner_iterations=20, learning_rate=0.05):
        self.max_outer_iterations = max_outer_iterations
        self.max_inner_iterations = max_inner_iterations
        self.learning_rate = learning_rate

    def _build_functions(self, problem):
        n_inner = self.max_inner_iterations

        def ee_positions(traj, fk_data):
            return jnp.stack([jnp.cumsum(fk_data * jnp.cos(traj), -1)[:, -1],
                              jnp.cumsum(fk_data * jnp.sin(traj), -1)[:, -1]], -1)

        def objective_fn(traj):
            return jnp.sum(jnp.diff(traj, axis=0) ** 2)

        def constraint_fn(traj, fk_data, obstacle):
            return jnp.linalg.norm(ee_positions(traj, fk_data) - obstacle, axis=-1) - 0.2

        def augmented_lagrangian(traj, lam, rho, fk_data, obstacle):
            violation = jnp.maximum(0.0, lam / rho - constraint_fn(traj, fk_data, obstacle))
            return objective_fn(traj) + 0.5 * rho * jnp.sum(violation ** 2)

        def inner_loop(traj, lam, rho, lr, fk_data, obstacle):
            grad = jax.grad(augmented_lagrangian)
            body = lambda i, t: t - lr * grad(t, lam, rho, fk_data, obstacle)
            return jax.lax.fori_loop(0, n_inner, body, traj)

        return jax.jit(constraint_fn), jax.jit(inner_loop)

    def solve(self, problem, initial_trajectory):
        key = (problem.n_waypoints, len(problem.link_lengths), self.max_inner_iterations)
        if key not in _JIT_CACHE:
            _JIT_CACHE[key] = self._build_functions(problem)
        constraint_fn, inner_loop = _JIT_CACHE[key]
        fk_data, obstacle = jnp.asarray(problem.link_lengths), jnp.asarray(problem.obstacle)

        traj = initial_trajectory
        lam, rho = jnp.zeros(problem.n_waypoints), jnp.float32(10.0)
        for _ in range(self.max_outer_iterations):
            traj = inner_loop(traj, lam, rho, jnp.float32(self.learning_rate), fk_data, obstacle)
            lam = jnp.maximum(0.0, lam - rho * constraint_fn(traj, fk_data, obstacle))
        return traj


def solve_ik(problem, initial_trajectory):
    solver = AugmentedLagrangianSolver()
    return solver.solve(problem, initial_trajectory)


if __name__ == "__main__":
    problem = TrajectoryProblem(6, [0.5, 0.4, 0.3], [0.6, 0.5])
    init = jnp.linspace(jnp.zeros(3), jnp.ones(3), 6)
    for sweep in range(3):
        traj = solve_ik(problem, init)
        print(sweep, traj[-1])
