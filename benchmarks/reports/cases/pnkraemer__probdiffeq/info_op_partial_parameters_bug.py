# source: https://github.com/pnkraemer/probdiffeq/pull/141
# category: R
# expect: recompiles
# via: jit-decorator, static-argnums, factory-closure, lax-fori, host-loop
# sink: fresh-callable
"""`simulate_terminal_values` binds the ODE parameters into the information operator with a
fresh `functools.partial(info_op, p=parameters)` on every call and hands it to the jitted
`odefilter_terminal_values` as a static argument; partials compare by identity, so every solve
(every new parameter value) compiles the solver again.  The pull request passes the parameters
down as a traced argument and makes the (cached) information operator a `Partial` pytree.
(The ODE filter is reduced to a fixed-step first-order update.)"""
import functools

import jax
import jax.numpy as jnp


@functools.lru_cache(maxsize=None)
def isotropic_ek0(*, ode_order=1):
    @functools.lru_cache(maxsize=None)
    def create_ek0_info_op_linearised(f):
        def info_op(x, *, t, p):
            return x[ode_order] - f(*x[:ode_order], t=t, p=p)

        return info_op

    return create_ek0_info_op_linearised


@functools.partial(jax.jit, static_argnums=[0])
def odefilter_terminal_values(info, taylor_coefficients, t0, t1, num_steps=50):
    dt = (t1 - t0) / num_steps

    def body(i, x):
        t = t0 + i * dt
        residual = info(x, t=t)
        x1 = x[1] - residual
        return jnp.stack([x[0] + dt * x1, x1])

    return jax.lax.fori_loop(0, num_steps, body, taylor_coefficients)[0]


def simulate_terminal_values(vector_field, initial_values, t0, t1, parameters, info_op):
    taylor_coefficients = jnp.stack([initial_values, vector_field(initial_values, t=t0, p=parameters)])
    info_op_curried = info_op(vector_field)
    info_op_partial = functools.partial(info_op_curried, p=parameters)
    return odefilter_terminal_values(info_op_partial, taylor_coefficients, t0, t1)  # <-- bug


def logistic(x, *, t, p):
    return p[0] * x * (1.0 - x)


if __name__ == "__main__":
    u0 = jnp.array([0.1])
    for rate in (0.5, 1.0, 2.0):
        y1 = simulate_terminal_values(logistic, u0, 0.0, 2.0, jnp.array([rate]), isotropic_ek0(ode_order=1))
        print(rate, float(y1[0]))
