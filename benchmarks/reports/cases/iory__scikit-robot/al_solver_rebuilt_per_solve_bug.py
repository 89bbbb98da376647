# source: https://github.com/iory/scikit-robot/issues/871
# category: R
# expect: recompiles
# via: method, factory-closure, jit-decorator, jit-call, grad, lax-fori, host-loop
# sink: fresh-callable
"""The trajectory solver's `solve` builds its jitted inner loop (and, through `_build_functions`,
jitted closures over the robot's FK arrays) afresh, and its cache lives on the solver instance;
a planner that makes a new solver for every request therefore compiles everything again on
each solve of the same problem.  The fix keeps one module-level cache of compiled functions
that take the FK arrays as a runtime argument."""
import jax
import jax.numpy as jnp


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
        self._jit_cache = {}

    def _build_functions(self, problem):
        fk_data = jnp.asarray(problem.link_lengths)
        obstacle = jnp.asarray(problem.obstacle)

        def ee_positions(traj):
            return jnp.stack([jnp.cumsum(fk_data * jnp.cos(traj), -1)[:, -1],
                              jnp.cumsum(fk_data * jnp.sin(traj), -1)[:, -1]], -1)

        objective_fn = jax.jit(lambda traj: jnp.sum(jnp.diff(traj, axis=0) ** 2))
        constraint_fn = jax.jit(lambda traj: jnp.linalg.norm(ee_positions(traj) - obstacle, axis=-1) - 0.2)
        return objective_fn, constraint_fn

    def solve(self, problem, initial_trajectory):
        key = (problem.n_waypoints, len(problem.link_lengths))
        if key not in self._jit_cache:
            self._jit_cache[key] = self._build_functions(problem)
        objective_fn, constraint_fn = self._jit_cache[key]

        def augmented_lagrangian(traj, lam, rho):
            violation = jnp.maximum(0.0, lam / rho - constraint_fn(traj))
            return objective_fn(traj) + 0.5 * rho * jnp.sum(violation ** 2)

        @jax.jit
        def inner_loop(traj, lam, rho, lr):
            body = lambda i, t: t - lr * jax.grad(augmented_lagrangian)(t, lam, rho)
            return jax.lax.fori_loop(0, self.max_inner_iterations, body, traj)

        traj = initial_trajectory
        lam, rho = jnp.zeros(problem.n_waypoints), jnp.float32(10.0)
        for _ in range(self.max_outer_iterations):
            traj = inner_loop(traj, lam, rho, jnp.float32(self.learning_rate))  # <-- bug
            lam = jnp.maximum(0.0, lam - rho * constraint_fn(traj))
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
