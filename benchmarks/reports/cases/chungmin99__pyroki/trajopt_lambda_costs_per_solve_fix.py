# source: https://github.com/chungmin99/pyroki/issues/74
# category: R
# expect: ok
# via: helper, method, dataclass, jit-call, lax-fori
# sink: changing-static
"""Solving the same trajectory problem twice with the trajopt snippet compiles the jaxls solver
again: each call builds its start/end costs from fresh lambdas, and a cost's residual function
is a static field of the problem handed to the jitted solve, so the static part never matches
the cached one.  The online-planning snippet avoids it by jitting the whole solve once.
(jaxls is not installed: Cost, LeastSquaresProblem and the solver are reduced here.)"""
import functools
from typing import Callable

import flax
import jax
import jax.numpy as jnp


@flax.struct.dataclass
class Cost:
    compute_residual: Callable = flax.struct.field(pytree_node=False)
    args: tuple = ()


@jax.jit
def _gauss_newton(problem, init):
    def residual(x):
        return jnp.concatenate([c.compute_residual(x, *c.args).ravel() for c in problem.costs])

    def body(i, x):
        r, jac = residual(x), jax.jacfwd(residual)(x).reshape(-1, x.size)
        return x - jnp.linalg.lstsq(jac, r)[0].reshape(x.shape)

    return jax.lax.fori_loop(0, 4, body, init)


@flax.struct.dataclass
class LeastSquaresProblem:
    costs: list

    def analyze(self):
        return self

    def solve(self, initial_vals):
        return _gauss_newton(self, initial_vals)


def smoothness_cost(traj, weight):
    return (traj[1:] - traj[:-1]) * weight


@functools.partial(jax.jit, static_argnames=("timesteps",))
def solve_trajopt(start_cfg, end_cfg, timesteps, dt):
    init_traj = jnp.linspace(start_cfg, end_cfg, timesteps)
    factors = [
        Cost(smoothness_cost, (1.0 / dt,)),
        Cost(lambda traj, cfg: (traj[:2] - cfg) * 100.0, (start_cfg,)),
        Cost(lambda traj, cfg: (traj[-2:] - cfg) * 100.0, (end_cfg,)),
    ]
    problem = LeastSquaresProblem(factors).analyze()
    return problem.solve(init_traj)


if __name__ == "__main__":
    start, end = jnp.zeros(3), jnp.array([0.5, -0.2, 1.0])
    traj = solve_trajopt(start, end, timesteps=10, dt=0.1)
    traj = solve_trajopt(start, end, timesteps=10, dt=0.1)
    print(traj[0], traj[-1])
