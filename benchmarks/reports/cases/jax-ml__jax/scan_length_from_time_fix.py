# source: https://github.com/jax-ml/jax/issues/4473
# category: A
# expect: ok
# via: partial-jit, static-argnums, lax-scan, helper
# sink: int-float-bool
"""An Euler integrator jits over (f, initial_state, time, dt) with only f static, and computes the
scan length as time / dt cast to int; time and dt are tracers, so the length is not concrete."""
from functools import partial

import numpy as onp
import jax.numpy as np
from jax import jit
from jax.lax import scan


@partial(jit, static_argnums=(0, 2, 3))
def integrate_euler(f, initial_state, time, dt):
    propagated_state, _ = scan(
        f=lambda state, _: (euler_integration_step(f, state, dt), None),
        init=initial_state,
        length=int(onp.divide(time, dt)),
        xs=None,
    )
    return propagated_state


def euler_integration_step(f, state, dt):
    return state + dt * f(state)


def decay(x):
    return 0.9 * x


if __name__ == "__main__":
    print(integrate_euler(decay, initial_state=np.array([1.0, 2.0]), time=1.0, dt=1e-2))
