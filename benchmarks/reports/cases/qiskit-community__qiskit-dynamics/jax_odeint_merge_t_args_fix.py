# source: https://github.com/qiskit-community/qiskit-dynamics/issues/122
# category: A
# expect: ok
# via: jit-call, helper
# sink: numpy-call
"""Qiskit Dynamics' fix gives jax_odeint a JAX version of the time-merging helper: it concatenates
with jnp and, instead of raising on an invalid t_eval, returns NaNs selected with lax.cond, so the
pulse simulation compiles with t_eval passed in."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.ode import odeint as _odeint
from jax.lax import cond


def merge_t_args_jax(t_span, t_eval=None):
    """JAX-compilable merge of t_span and t_eval; signals errors with NaN."""
    t_span = jnp.asarray(t_span)
    if t_eval is None:
        return t_span
    t_eval = jnp.asarray(t_eval)
    out = jnp.append(jnp.append(t_span[0], t_eval), t_span[1])
    diff = jnp.diff(t_eval)
    t_direction = jnp.sign(t_span[1] - t_span[0])
    return cond(jnp.any(t_direction * diff < 0.0), lambda s: jnp.nan * s, lambda s: s, out)


def jax_odeint(rhs, t_span, y0, t_eval=None):
    t_list = merge_t_args_jax(t_span, t_eval)
    ys = _odeint(lambda y, t: rhs(t, y), y0, jnp.asarray(t_list))
    return ys if t_eval is None else ys[1:-1]


def rhs(t, y):
    return jnp.array([[0.0, -1.0], [1.0, 0.0]]) @ y


@jax.jit
def sim(t_span, t_eval):
    return jax_odeint(rhs, t_span, jnp.array([1.0, 0.0]), t_eval=t_eval)


if __name__ == "__main__":
    print(sim(jnp.array([0.0, 1.0]), jnp.linspace(0.1, 0.9, 5)))
