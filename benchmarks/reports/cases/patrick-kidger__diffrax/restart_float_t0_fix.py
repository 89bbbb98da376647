# source: https://github.com/patrick-kidger/diffrax/issues/333
# category: R
# expect: ok
# via: equinox, jit-call, lax-while, host-loop
# sink: changing-static
"""An ODE is solved until a terminating event fires, the arguments are modified, and the solve
is restarted from the event time in a host while-loop.  The restart time is converted with
float(...), and a Python float t0 is static to diffeqsolve, so every restart compiles the whole
solve again; keeping the time as a JAX array reuses one compilation.  diffrax is not installed:
diffeqsolve, ODETerm and the event are reduced here under their names."""
from typing import Callable

import equinox as eqx
import jax
import jax.numpy as jnp


class ODETerm(eqx.Module):
    vector_field: Callable


class Euler(eqx.Module):
    def step(self, term, t, dt, y, args):
        return y + dt * term.vector_field(t, y, args)


class DiscreteTerminatingEvent(eqx.Module):
    cond_fn: Callable


class Solution(eqx.Module):
    ts: jax.Array
    ys: jax.Array


@eqx.filter_jit
def diffeqsolve(term, solver, t0, t1, dt0, y0, args=None, discrete_terminating_event=None):
    def cond(carry):
        t, y = carry
        return (t < t1) & ~discrete_terminating_event.cond_fn(y, args)

    def body(carry):
        t, y = carry
        return t + dt0, solver.step(term, t, dt0, y, args)

    t, y = jax.lax.while_loop(cond, body, (jnp.asarray(t0, float), y0))
    return Solution(ts=t[None], ys=y[None])


def my_function(y, threshold):
    return y[0] > threshold


def modify_args(y, args):
    return args + 1.0


def vector_field(t, y, args):
    return jnp.stack([jnp.ones_like(y[0]), -y[1]])


if __name__ == "__main__":
    term = ODETerm(vector_field)
    my_event = DiscreteTerminatingEvent(my_function)
    t0, t1, dt0 = 0.0, 3.0, 0.1
    tcurrent = jnp.array(t0, dtype=jnp.float32)
    y0 = jnp.array([0.0, 1.0])
    args = jnp.array(1.0)
    while tcurrent < t1:
        solution = diffeqsolve(term, Euler(), tcurrent, t1, dt0, y0, args=args,
                               discrete_terminating_event=my_event)
        tcurrent = solution.ts[0]
        y0 = solution.ys[-1]
        args = modify_args(solution.ys[-1], args)
        print(round(float(tcurrent), 3), y0)
