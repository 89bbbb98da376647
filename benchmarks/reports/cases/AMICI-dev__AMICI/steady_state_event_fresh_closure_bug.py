# source: https://github.com/AMICI-dev/AMICI/pull/3197
# category: R
# expect: recompiles
# via: equinox, method, factory-closure, lax-while, host-loop
# sink: fresh-callable
"""AMICI's `JAXModel.simulate_condition` is an `eqx.filter_jit` method that takes the
steady-state event as a static argument; an objective that builds its solver settings afresh
each iteration passes a new `diffrax.steady_state_event()` closure every call, closures compare
by identity, and the simulation compiles again for each parameter value.  The fix wraps the
settings in an `eqx.Module` whose equality is by value.  (diffrax is not installed: its
`steady_state_event` and the integrator are reduced.)"""
import equinox as eqx
import jax
import jax.numpy as jnp


def steady_state_event(rtol=None, atol=None):
    def _event(t, y, args, *, vector_field):
        _rtol = 1e-5 if rtol is None else rtol
        _atol = 1e-5 if atol is None else atol
        return jnp.linalg.norm(vector_field) < _atol + _rtol * jnp.linalg.norm(y)

    return _event


class JAXModel(eqx.Module):
    def xdot(self, t, x, p):
        return -p[0] * x

    @eqx.filter_jit
    def simulate_condition(self, p, x0, dt, steady_state_event, max_steps):
        def cond(carry):
            i, t, x = carry
            done = steady_state_event(t, x, p, vector_field=self.xdot(t, x, p))
            return (i < max_steps) & jnp.logical_not(done)

        def body(carry):
            i, t, x = carry
            return i + 1, t + dt, x + dt * self.xdot(t, x, p)

        _, t_ss, x_ss = jax.lax.while_loop(cond, body, (0, jnp.float32(0.0), x0))
        return t_ss, x_ss


def fresh_solver_kwargs():
    return dict(dt=jnp.float32(0.05), steady_state_event=steady_state_event(), max_steps=2000)


if __name__ == "__main__":
    model = JAXModel()
    x0 = jnp.array([1.0])
    for k_val in [1.0, 2.5, 0.3]:
        kwargs = fresh_solver_kwargs()
        t_ss, x_ss = model.simulate_condition(jnp.array([k_val]), x0, **kwargs)  # <-- bug
        print(k_val, float(t_ss), float(x_ss[0]))
