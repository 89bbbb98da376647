# source: https://github.com/cgiovanetti/LINX/issues/13
# category: R
# expect: recompiles
# via: equinox, method, jit-decorator, static-argnums, lax-cond, lax-scan, host-loop
# sink: weak-type
"""The thermodynamics model is a filter-jitted Equinox module; the reporter warms it up with
`jnp.asarray(0.)`, a weakly typed scalar, and then sweeps Delta N_eff over the entries of a
`jnp.linspace(..., dtype=float)` array, which are strongly typed, so the first sweep call traces
the whole model (and the jitted polylog inside it) a second time.
(The Diffrax solve is reduced to a fixed-step scan here.)"""
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp
from jax import lax

T_start = jnp.float32(10.0)
T_end = 0.5


@partial(jax.jit, static_argnums=(0,))
def Li(n, z):
    k = jnp.arange(1, 30, dtype=jnp.float32)
    return jnp.sum(z ** k / k ** n)


def rho_massless_BE(T, mu, g):
    return lax.cond(
        T > 0.,
        lambda T: g * 3 / jnp.pi ** 2 * Li(4, jnp.exp(mu / T)) * T ** 4,
        lambda T: 0.,
        T,
    )


def n_massless_BE(T, mu, g):
    return lax.cond(
        T > 0.,
        lambda T: g / jnp.pi ** 2 * Li(3, jnp.exp(mu / T)) * T ** 3,
        lambda T: 0.,
        T,
    )


class BackgroundModel(eqx.Module):
    decoupled: bool
    use_FD: bool

    def __init__(self, decoupled=False, use_FD=True):
        self.decoupled = decoupled
        self.use_FD = use_FD

    @eqx.filter_jit
    def __call__(self, Delt_Neff_init, n_steps=64):
        rho_extra_init = (7 / 8) * (4 / 11) ** (4 / 3) * rho_massless_BE(T_start, -0.1, 2) * Delt_Neff_init
        temps = jnp.linspace(T_start, T_end, n_steps)

        def step(lna, T):
            rho_g = rho_massless_BE(T, -0.1, 2)
            n_g = n_massless_BE(T, -0.1, 2)
            rho_extra = rho_extra_init * jnp.exp(-4 * lna)
            H = jnp.sqrt(rho_g + rho_extra)
            return lna + 0.01 * H / T, (rho_g, n_g, rho_extra)

        _, (rho_g_vec, n_g_vec, rho_extra_vec) = lax.scan(step, jnp.float32(0.0), temps)
        Neff_vec = 3.0 + rho_extra_vec / (rho_g_vec * (7 / 8) * (4 / 11) ** (4 / 3))
        return temps, rho_g_vec, n_g_vec, rho_extra_vec, Neff_vec


if __name__ == "__main__":
    thermo_model_DNeff = BackgroundModel()
    t_vec_ref, rho_g_ref, n_g_ref, rho_NP_ref, Neff_ref = thermo_model_DNeff(jnp.asarray(0.))
    input_dNeff = jnp.linspace(-5, 5, 10, dtype=float)
    for dNeff in input_dNeff:
        t_vec, rho_g_vec, n_g_vec, rho_extra_vec, Neff_vec = thermo_model_DNeff(dNeff)  # <-- bug
        print(float(dNeff), float(Neff_vec[-1]))
