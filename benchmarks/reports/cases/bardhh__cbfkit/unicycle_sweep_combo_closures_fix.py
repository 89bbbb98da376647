# source: https://github.com/bardhh/cbfkit/pull/334
# category: R
# expect: ok
# via: jit-call, factory-closure, vmap, lax-scan, grad, host-loop
# sink: fresh-callable
"""cbfkit's unicycle benchmark swept `alpha`, the two gains, the control limit and the barrier
type by building a new setup per combination: a controller closed over those values (with a
Python branch on the barrier type) and a freshly jitted, vmapped simulation, so each of the
nine combinations paid a full trace and compilation.  The pull request caches one simulation
per obstacle count and step count that takes every sweep value as a JAX input and picks the
class-K function with `lax.cond`."""
from functools import lru_cache

import jax
import jax.numpy as jnp
from jax import lax, random

GOAL = jnp.array([4.0, 4.0])
CENTERS = jnp.array([[2.0, 2.2], [3.0, 1.0]])
SEMI_AXES = jnp.array([[0.5, 0.4], [0.4, 0.6]])


def _barrier(state, center, semi_axes):
    return jnp.sum(((state[:2] - center) / semi_axes) ** 2) - 1.0


@lru_cache(maxsize=16)
def _get_unicycle_sim_fn(n_obstacles, num_steps, dt=0.05):
    def _simulate(key, x0, alpha, Kp_pos, Kp_theta, control_limit, barrier_type_flag):
        def step(x, _):
            err = GOAL - x[:2]
            theta_err = jnp.mod(jnp.arctan2(err[1], err[0]) - x[3] + jnp.pi, 2 * jnp.pi) - jnp.pi
            u = jnp.array([Kp_pos * (jnp.minimum(Kp_pos * jnp.linalg.norm(err), 2.0) - x[2]), Kp_theta * theta_err])
            h = jax.vmap(_barrier, (None, 0, 0))(x, CENTERS[:n_obstacles], SEMI_AXES[:n_obstacles])
            grads = jax.vmap(jax.grad(_barrier), (None, 0, 0))(x, CENTERS[:n_obstacles], SEMI_AXES[:n_obstacles])
            alpha_h = lax.cond(barrier_type_flag == 0, lambda p: alpha * p, lambda p: alpha * p**3, h)
            push = jnp.sum(jnp.maximum(-alpha_h, 0.0)[:, None] * grads[:, :2], axis=0)
            u = jnp.clip(u + jnp.array([push @ jnp.array([jnp.cos(x[3]), jnp.sin(x[3])]), 0.0]), -control_limit, control_limit)
            v, theta = x[2] + dt * u[0], x[3] + dt * u[1]
            x = jnp.array([x[0] + dt * v * jnp.cos(theta), x[1] + dt * v * jnp.sin(theta), v, theta])
            return x, jnp.min(h)

        return lax.scan(step, x0, None, length=num_steps)

    return jax.jit(jax.vmap(_simulate, in_axes=(0, 0, None, None, None, None, None)))


def conduct_monte_carlo(sim_fn, keys, x0s, *params):
    return sim_fn(keys, x0s, *params)


if __name__ == "__main__":
    keys = random.split(random.PRNGKey(0), 3)
    x0s = jnp.concatenate([random.uniform(random.PRNGKey(1), (3, 2), maxval=0.5), jnp.zeros((3, 2))], axis=1)
    for alpha in [0.5, 1.0, 2.0]:
        for barrier_type in ["linear", "cubic"]:
            sim_fn = _get_unicycle_sim_fn(len(CENTERS), 60)
            flag = jnp.int32(0 if barrier_type == "linear" else 1)
            params = [jnp.float32(p) for p in (alpha, 1.0, 2.0, 3.0)]
            xs, hs = conduct_monte_carlo(sim_fn, keys, x0s, *params, flag)
            print(alpha, barrier_type, jnp.round(jnp.linalg.norm(xs[:, :2] - GOAL, axis=-1), 2))
