# source: https://github.com/NACLab/ngc-learn/pull/79
# category: B
# expect: raises
# via: jit-decorator, helper, host-loop
# sink: static-spec
"""A pull request wanted to drop the `static_argnums` of `step_euler` so that rate cells could be
given other prior (derivative) functions; the review showed that with a plain `@jit` the
derivative co-routine `dfx` is passed as a traced argument and jit rejects the function object.
The version kept marks `dfx` static with `partial(jit, static_argnums=(2))`."""
from functools import partial

from jax import jit
from jax import numpy as jnp


@jit
def _step_forward(t, x, dx_dt, dt, x_scale):
    _t = t + dt
    _x = x * x_scale + dx_dt * dt
    return _t, _x


def _euler(carry, dfx, dt, params, x_scale=1.):
    t, x = carry
    dx_dt = dfx(t, x, params)
    _t, _x = _step_forward(t, x, dx_dt, dt, x_scale)
    return (_t, _x), (_t, _x)


@jit
def step_euler(t, x, dfx, dt, params, x_scale=1.):
    carry = (t, x)
    next_state, *_ = _euler(carry, dfx, dt, params, x_scale=x_scale)
    _t, _x = next_state
    return _t, _x


def _dfz_laplacian(t, z, params):
    j, tau_m, leak = params
    return (-jnp.sign(z) * leak + j) / tau_m


if __name__ == "__main__":
    j = jnp.ones((1, 4))
    t, z = jnp.zeros(()), jnp.zeros((1, 4))
    for _ in range(5):
        t, z = step_euler(t, z, _dfz_laplacian, 0.1, (j, 10., 0.5))  # <-- bug
    print(t, z)
