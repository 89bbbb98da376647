# source: https://github.com/patrick-kidger/diffrax/issues/466
# category: R
# expect: ok
# via: equinox, jit-call, helper, host-loop
# sink: changing-static
"""Solving a neural ODE with diffrax at a series of tolerances: rtol/atol given as Python floats
are static fields of the step-size controller, so every new tolerance compiles diffeqsolve
again (seconds each); passed as JAX arrays they are traced and one compilation serves all.
diffrax is not installed: diffeqsolve and the controller are reduced here under their names."""
from typing import Callable

import equinox as eqx
import jax
import jax.numpy as jnp


class ODETerm(eqx.Module):
    vector_field: Callable


class Dopri5(eqx.Module):
    def step(self, term, t, dt, y, args):
        k1 = term.vector_field(t, y, args)
        k2 = term.vector_field(t + dt, y + dt * k1, args)
        return y + 0.5 * dt * (k1 + k2)


class PIDController(eqx.Module):
    rtol: float
    atol: float


@eqx.filter_jit
def diffeqsolve(term, solver, t0, t1, dt0, y0, args=None, stepsize_controller=None):
    dt = dt0 * jnp.clip((stepsize_controller.rtol + stepsize_controller.atol) * 1e4, 0.1, 1.0)
    n = 64

    def body(i, y):
        return solver.step(term, t0 + i * dt, dt, y, args)

    return jax.lax.fori_loop(0, n, body, y0)


def vector_field(t, y, args):
    return args(y)


def run_diffrax(hidden_dims, input_x, t_span, num_steps, options):
    mlp = eqx.nn.MLP(input_x.shape[-1], input_x.shape[-1], hidden_dims, 2, key=jax.random.PRNGKey(0))
    term = ODETerm(vector_field)
    controller = PIDController(rtol=jnp.asarray(options["rtol"]), atol=jnp.asarray(options["atol"]))
    dt0 = (t_span[1] - t_span[0]) / num_steps
    return diffeqsolve(term, options["method"], t_span[0], t_span[1], dt0, input_x,
                       args=mlp, stepsize_controller=controller)


if __name__ == "__main__":
    input_x = jnp.ones(4)
    for tol in [1e-5, 1e-4, 1e-3]:
        out = run_diffrax(16, input_x, [0.0, 1.0], 100, {"method": Dopri5(), "atol": tol, "rtol": tol})
        print(tol, out)
