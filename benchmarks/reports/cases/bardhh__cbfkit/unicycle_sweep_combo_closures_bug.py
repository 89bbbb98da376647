# source: https://github.com/bardhh/cbfkit/pull/334
# category: R
# expect: recompiles
# via: jit-call, factory-closure, vmap, lax-scan, grad, host-loop
# sink: fresh-callable
"""cbfkit's unicycle benchmark swept `alpha`, the two gains, the control limit and the barrier
type by building a new setup per combination: a controller closed over those values (with a
Python branch on the barrier type) and a freshly jitted, vmapped simulation, so each of the
nine combinations paid a full trace and compilation.  The pull request caches one simulation
per obstacle count and step count that takes every sweep value as a JAX input and picks the
class-K function with `lax.cond`."""
import jax
import jax.numpy as jnp
from jax import lax, random

GOAL = jnp.array([4.0, 4.0])
CENTERS = jnp.array([[2.0, 2.2], [3.0, 1.0]])
SEMI_AXES = jnp.array([[0.5, 0.4], [0.4, 0.6]])


def _barrier(state, center, semi_axes):
    return jnp.sum(((state[:2] - center) / semi_axes) ** 2) - 1.0


def build_unicycle_setup(alpha, Kp_pos, Kp_theta, control_limit, barrier_type, dt=0.05, num_steps=60):
    class_k = (lambda h: alpha * h) if barrier_type == "linear" else (lambda h: alpha * h**3)

    def step(x, _):
        err = GOAL - x[:2]
        theta_err = jnp.mod(jnp.arctan2(err[1], err[0]) - x[3] + jnp.pi, 2 * jnp.pi) - jnp.pi
        u = jnp.array([Kp_pos * (jnp.minimum(Kp_pos * jnp.linalg.norm(err), 2.0) - x[2]), Kp_theta * theta_err])
        h = jax.vmap(_barrier, (None, 0, 0))(x, CENTERS, SEMI_AXES)
        grads = jax.vmap(jax.grad(_barrier), (None, 0, 0))(x, CENTERS, SEMI_AXES)
        push = jnp.sum(jnp.maximum(-class_k(h), 0.0)[:, None] * grads[:, :2], axis=0)
        u = jnp.clip(u + jnp.array([push @ jnp.array([jnp.cos(x[3]), jnp.sin(x[3])]), 0.0]), -control_limit, control_limit)
        v, theta = x[2] + dt * u[0], x[3] + dt * u[1]
        x = jnp.array([x[0] + dt * v * jnp.cos(theta), x[1] + dt * v * jnp.sin(theta), v, theta])
        return x, jnp.min(h)

    def simulate(key, x0):
        return lax.scan(step, x0, None, length=num_steps)

    return simulate


def conduct_monte_carlo(simulate, keys, x0s):
    return jax.jit(jax.vmap(simulate))(keys, x0s)  # <-- bug


if __name__ == "__main__":
    keys = random.split(random.PRNGKey(0), 3)
    x0s = jnp.concatenate([random.uniform(random.PRNGKey(1), (3, 2), maxval=0.5), jnp.zeros((3, 2))], axis=1)
    for alpha in [0.5, 1.0, 2.0]:
        for barrier_type in ["linear", "cubic"]:
            simulate = build_unicycle_setup(alpha, 1.0, 2.0, 3.0, barrier_type)
            xs, hs = conduct_monte_carlo(simulate, keys, x0s)
            print(alpha, barrier_type, jnp.round(jnp.linalg.norm(xs[:, :2] - GOAL, axis=-1), 2))
