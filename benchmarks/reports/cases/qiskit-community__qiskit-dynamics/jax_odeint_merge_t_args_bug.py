# source: https://github.com/qiskit-community/qiskit-dynamics/issues/122
# category: A
# expect: raises
# via: jit-call, helper
# sink: numpy-call
"""Qiskit Dynamics' jax_odeint merged t_span and t_eval with a NumPy helper that validates and
concatenates the time points; when the pulse simulation is jit-compiled with t_eval passed in, the
helper converts traced time arrays to NumPy and compilation fails."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.ode import odeint as _odeint


def merge_t_args(t_span, t_eval=None):
    """Merge t_span and t_eval into one array of time points (NumPy, not compilable)."""
    t_span = np.asarray(t_span)  # <-- bug
    if t_eval is None:
        return t_span
    t_eval = np.asarray(t_eval)
    if np.any(np.sign(t_span[1] - t_span[0]) * np.diff(t_eval) < 0.0):
        raise ValueError("t_eval must be ordered according to the direction of integration.")
    return np.append(np.append(t_span[0], t_eval), t_span[1])


def jax_odeint(rhs, t_span, y0, t_eval=None):
    t_list = merge_t_args(t_span, t_eval)
    ys = _odeint(lambda y, t: rhs(t, y), y0, jnp.asarray(t_list))
    return ys if t_eval is None else ys[1:-1]


def rhs(t, y):
    return jnp.array([[0.0, -1.0], [1.0, 0.0]]) @ y


@jax.jit
def sim(t_span, t_eval):
    return jax_odeint(rhs, t_span, jnp.array([1.0, 0.0]), t_eval=t_eval)


if __name__ == "__main__":
    print(sim(jnp.array([0.0, 1.0]), jnp.linspace(0.1, 0.9, 5)))
