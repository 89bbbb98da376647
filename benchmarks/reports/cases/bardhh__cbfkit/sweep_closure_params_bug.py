# source: https://github.com/bardhh/cbfkit/commit/416b112a1a4ead3dbc71c90cf2a6a7add4ed1802
# category: R
# expect: recompiles
# via: jit-call, factory-closure, vmap, lax-scan, host-loop
# sink: fresh-callable
"""cbfkit's single-integrator parameter sweep built a new setup for each combination of
`alpha` and `control_limit`, with the controller closed over those values, and jitted a fresh
vmapped simulation for it, so every combination of the sweep traced and compiled the whole
kernel again.  The commit builds one cached simulation function per obstacle count and step
count that takes `alpha` and `control_limit` as ordinary inputs."""
import jax
import jax.numpy as jnp
from jax import lax, random

GOAL = jnp.array([9.0, 9.0])


def build_single_integrator_setup(alpha, control_limit, centers, radii, dt=0.1, num_steps=100):
    def controller(x):
        u_nom = 2.0 * (GOAL - x)
        diffs = x[None, :] - centers
        h = jnp.sum(diffs**2, axis=1) - radii**2
        grad_h = 2.0 * diffs
        # push away from obstacles whose barrier condition is violated by u_nom
        slack = grad_h @ u_nom + alpha * h
        u = u_nom - jnp.sum(jnp.minimum(slack, 0.0)[:, None] * grad_h, axis=0) / (jnp.sum(grad_h**2) + 1e-6)
        return jnp.clip(u, -control_limit, control_limit), jnp.min(h)

    def simulate(key, x0):
        def _step(x, _):
            u, h = controller(x)
            return x + dt * u, h

        return lax.scan(_step, x0, None, length=num_steps)

    return simulate


def conduct_monte_carlo(simulate, keys, x0s):
    return jax.jit(jax.vmap(simulate))(keys, x0s)  # <-- bug


if __name__ == "__main__":
    centers = jnp.array([[4.0, 4.0], [6.0, 7.0]])
    radii = jnp.array([0.8, 0.6])
    keys = jnp.stack([random.PRNGKey(s) for s in range(3)])
    x0s = jax.vmap(lambda k: random.uniform(k, (2,), minval=-1.0, maxval=1.0))(keys)
    for alpha in [0.5, 1.0]:
        for control_limit in [2.0, 5.0]:
            simulate = build_single_integrator_setup(alpha, control_limit, centers, radii)
            xs, hs = conduct_monte_carlo(simulate, keys, x0s)
            print(alpha, control_limit, jnp.round(xs, 2)[0], bool(jnp.all(hs > -1e-4)))
