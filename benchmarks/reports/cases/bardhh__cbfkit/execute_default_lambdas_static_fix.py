# source: https://github.com/bardhh/cbfkit/pull/22
# category: R
# expect: ok
# via: partial-jit, static-argnums, lax-scan, helper, host-loop
# sink: fresh-callable
"""cbfkit's `execute` filled in missing sensor, estimator and perturbation functions with
lambdas written inside the call and passed them to `simulator_jit` as static arguments; each
simulation run made new function objects, so every run compiled the whole simulation again.
The pull request defines the default functions once at module level."""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax, random


@partial(jax.jit, static_argnames=["dt", "num_steps", "dynamics", "sensor", "estimator", "perturbation"])
def simulator_jit(x0, key, dt, num_steps, dynamics, sensor, estimator, perturbation):
    def step(carry, _):
        x, c, key = carry
        key, sub = random.split(key)
        y = sensor(0.0, x)
        z, c = estimator(0.0, y, None, None, c)
        u = -z
        f, g = dynamics(x)
        x = x + dt * (f + g @ u + perturbation(x, u, f, g)(sub))
        return (x, c, key), x

    c0 = jnp.zeros((x0.shape[0], x0.shape[0]))
    _, xs = lax.scan(step, (x0, c0, key), None, length=num_steps)
    return xs


def single_integrator(x):
    return jnp.zeros_like(x), jnp.eye(x.shape[0])


def _default_sensor(t, x, **kwargs):
    return x


def _default_estimator(t, y, z, u, c):
    return y, c


def _default_perturbation(x, u, f, g):
    def p(key):
        return jnp.zeros(x.shape)

    return p


def execute(x0, dt, num_steps, dynamics, sensor=None, estimator=None, perturbation=None, key=None):
    if key is None:
        key = random.PRNGKey(0)
    _sensor = sensor if sensor is not None else _default_sensor
    _estimator = estimator if estimator is not None else _default_estimator
    _perturbation = perturbation if perturbation is not None else _default_perturbation
    return simulator_jit(
        x0, key, dt=dt, num_steps=num_steps, dynamics=dynamics,
        sensor=_sensor, estimator=_estimator, perturbation=_perturbation,
    )


if __name__ == "__main__":
    for x0 in [jnp.array([1.0, 2.0]), jnp.array([-1.0, 0.5]), jnp.array([3.0, -2.0])]:
        xs = execute(x0, dt=0.1, num_steps=20, dynamics=single_integrator)
        print(xs[-1])
