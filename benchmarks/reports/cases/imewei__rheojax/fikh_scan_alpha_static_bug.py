# source: https://github.com/imewei/rheojax/commit/580cd45401436f8fa0bcb3b81654f603b6fcf6b1
# category: B
# expect: raises
# via: partial-jit, static-argnums, lax-scan, method, grad, helper
# sink: static-array
"""rheojax's FIKH return-mapping kernel lists `alpha` (the fractional order of the structure
equation) in `static_argnums=(2, 3, 4)`, and the model passes `alpha_structure` by keyword; once
the NLSQ fit differentiates with respect to that parameter it arrives as a tracer, and jit
refuses it as a non-hashable static argument."""
from functools import partial

import jax
import jax.numpy as jnp


def compute_l1_coefficients(alpha, n):
    k = jnp.arange(n, dtype=jnp.float32)
    return (k + 1.0) ** (1.0 - alpha) - k ** (1.0 - alpha)


@partial(jax.jit, static_argnums=(2, 3, 4))
def fikh_scan_kernel_isothermal(times, strains, n_history=100, alpha=0.5, use_viscosity=True, **params):
    b_coeffs = compute_l1_coefficients(alpha, n_history + 1)
    dts = jnp.diff(times, prepend=times[0])
    d_gammas = jnp.diff(strains, prepend=strains[0])
    eta_inf = params["eta_inf"] if use_viscosity else 0.0

    def scan_fn(carry, inputs):
        (sigma, lam), history = carry
        dt, d_gamma = inputs
        memory = jnp.dot(b_coeffs[1:], history[::-1] - lam)
        lam_new = lam + dt / params["tau_thix"] * (1.0 - lam) - 0.1 * memory - 0.05 * dt * lam
        sigma_new = sigma + params["G"] * d_gamma * lam_new - dt * sigma / params["tau_thix"]
        history = jnp.roll(history, -1).at[-1].set(lam_new)
        stress = sigma_new + eta_inf * d_gamma / jnp.maximum(dt, 1e-6)
        return ((sigma_new, lam_new), history), stress

    init = ((jnp.array(0.0), jnp.array(1.0)), jnp.ones(n_history))
    _, stress_series = jax.lax.scan(scan_fn, init, (dts, d_gammas))
    return stress_series


class FIKH:
    param_names = ("G", "tau_thix", "eta_inf", "alpha_structure")

    def __init__(self, n_history=20):
        self.n_history = n_history
        self.alpha_structure = 0.5

    def _simulate_startup(self, times, strains, params):
        alpha = params.get("alpha_structure", self.alpha_structure)
        params = {k: v for k, v in params.items() if k != "alpha_structure"}
        return fikh_scan_kernel_isothermal(  # <-- bug
            times,
            strains,
            n_history=self.n_history,
            alpha=alpha,
            use_viscosity=True,
            **params,
        )

    def model_function(self, p, times, strains):
        return self._simulate_startup(times, strains, dict(zip(self.param_names, p)))

    def fit(self, times, strains, stress, p0, steps=2):
        p = p0
        for _ in range(steps):
            r = self.model_function(p, times, strains) - stress
            J = jax.jacfwd(self.model_function)(p, times, strains)
            p = p - jnp.linalg.lstsq(J, r)[0] * 0.5
        return p


if __name__ == "__main__":
    times = jnp.linspace(0.0, 5.0, 60)
    strains = 0.5 * times
    model = FIKH()
    p_true = jnp.array([100.0, 2.0, 1.0, 0.6])
    stress = model.model_function(p_true, times, strains)
    p_fit = model.fit(times, strains, stress, jnp.array([80.0, 1.5, 0.5, 0.5]))
    print([round(float(v), 2) for v in p_fit])
