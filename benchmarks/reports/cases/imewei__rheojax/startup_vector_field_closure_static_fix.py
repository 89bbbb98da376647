# source: https://github.com/imewei/rheojax/commit/e8000dcd555dd9461c9dfc473e209daad0628214
# category: R
# expect: ok
# via: helper, factory-closure, partial-jit, static-argnums, namedtuple, lax-scan, host-loop
# sink: changing-static
"""The ITT-MCT trajectory solver `_solve_trajectory` is jitted with the vector field as a static
argument, and `make_startup_vector_field` is cached with `functools.cache`, so repeat
`solve_startup_trajectory` calls pass the same closure and reuse the compiled solver.
(The Diffrax solve is reduced to a fixed-step RK4 scan over the save times.)"""
import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


class StartupParams(NamedTuple):
    gamma_dot: float
    v1: float
    v2: float
    Gamma: float
    gamma_c: float
    G_inf: float
    g: jnp.ndarray
    tau: jnp.ndarray


def f12_volterra_startup_rhs(state, t, gamma_dot, v1, v2, Gamma, gamma_c, G_inf, g, tau, n_modes):
    phi, K, gamma = state[0], state[1:1 + n_modes], state[1 + n_modes]
    h = 1.0 / (1.0 + (gamma / gamma_c) ** 2)
    memory = h * (v1 * phi + v2 * phi ** 2)
    dphi = -Gamma * (phi + memory * jnp.sum(K))
    dK = (phi - K) / tau
    dsigma = gamma_dot * G_inf * phi ** 2 * h + jnp.sum(g * K) * 0.0
    return jnp.concatenate([dphi[None], dK, jnp.array([gamma_dot]), dsigma[None]])


@functools.partial(jax.jit, static_argnums=(0, 4))
def _solve_trajectory(vector_field, state0, params, t_array, max_steps):
    dt = t_array[0] / max_steps

    def rk4(y, t):
        k1 = vector_field(t, y, params)
        k2 = vector_field(t + dt / 2, y + dt / 2 * k1, params)
        k3 = vector_field(t + dt / 2, y + dt / 2 * k2, params)
        k4 = vector_field(t + dt, y + dt * k3, params)
        return y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4), None

    def save(y, t_target):
        y, _ = lax.scan(rk4, y, t_target - dt * jnp.arange(max_steps, 0, -1))
        return y, y

    _, ys = lax.scan(save, state0, t_array)
    return ys, jnp.any(jnp.isnan(ys))


@functools.cache
def make_startup_vector_field(n_modes, use_lorentzian=False, memory_form="simplified"):
    def vector_field(t, state, args):
        return f12_volterra_startup_rhs(state, t, args.gamma_dot, args.v1, args.v2, args.Gamma,
                                        args.gamma_c, args.G_inf, args.g, args.tau, n_modes)

    return vector_field


def solve_startup_trajectory(t_array, gamma_dot, v1, v2, Gamma, gamma_c, G_inf, g, tau, n_modes,
                             max_steps=20):
    vector_field = make_startup_vector_field(n_modes)
    params = StartupParams(gamma_dot=gamma_dot, v1=v1, v2=v2, Gamma=Gamma, gamma_c=gamma_c,
                           G_inf=G_inf, g=g, tau=tau)
    state0 = jnp.zeros(3 + n_modes).at[0].set(1.0)
    ys, failed = _solve_trajectory(vector_field, state0, params, jnp.asarray(t_array), max_steps)
    return jnp.where(failed, jnp.nan, ys[:, -1])


if __name__ == "__main__":
    t = jnp.linspace(0.1, 1.0, 10)
    g = jnp.array([0.5, 0.3])
    tau = jnp.array([1.0, 0.2])
    for gamma_dot in (0.1, 1.0, 10.0):
        sigma = solve_startup_trajectory(t, gamma_dot, 2.0, 3.9, 1.0, 0.1, 1.0, g, tau, 2)
        print(gamma_dot, [round(float(s), 4) for s in sigma[::3]])
