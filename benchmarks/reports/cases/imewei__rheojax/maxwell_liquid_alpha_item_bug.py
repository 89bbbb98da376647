# source: https://github.com/imewei/rheojax/commit/f927725c039e3c0015fcc5e14206b839aba08986
# category: A
# expect: raises
# via: method, jit-call, factory-closure, host-loop
# sink: item
"""The fractional Maxwell liquid turned its order into a Python float with
`float(jnp.asarray(alpha).item())` so the Mittag-Leffler function could take it as a static
argument; the least-squares fit jits the residual and its Jacobian, so `.item()` meets a tracer."""
from functools import partial

import jax
import jax.numpy as jnp
from jax.scipy.special import gamma as jax_gamma


@partial(jax.jit, static_argnums=(1, 2))
def mittag_leffler_e2(z, alpha, beta):
    k = jnp.arange(40.0)
    terms = z[..., None] ** k / jax_gamma(alpha * k + beta)
    return jnp.sum(terms, axis=-1)


class FractionalMaxwellLiquid:
    def _predict_relaxation_jax(self, t, Gm, alpha, tau_alpha):
        epsilon = 1e-12
        # Convert alpha to Python float for Mittag-Leffler (requires static values)
        alpha_float = (
            float(alpha)
            if not isinstance(alpha, (jnp.ndarray, jax.Array))
            else float(jnp.asarray(alpha).item())  # <-- bug
        )
        alpha_safe_float = max(epsilon, min(alpha_float, 1.0 - epsilon))
        ml_alpha = 1.0 - alpha_safe_float
        ml_beta = 1.0 - alpha_safe_float
        alpha_safe = jnp.array(alpha_safe_float)
        t_safe = jnp.maximum(t, epsilon)
        z = -(t_safe ** (1.0 - alpha_safe)) / jnp.maximum(tau_alpha, epsilon)
        return Gm * (t_safe ** (-alpha_safe)) * mittag_leffler_e2(z, ml_alpha, ml_beta)

    def fit(self, t, G, max_iter=4):
        def residual(params):
            return self._predict_relaxation_jax(t, params[0], params[1], params[2]) - G

        res_and_jac = jax.jit(lambda p: (residual(p), jax.jacfwd(residual)(p)))
        params = jnp.array([1.2, 0.4, 1.1])
        for _ in range(max_iter):
            r, J = res_and_jac(params)
            params = params - 0.5 * jnp.linalg.lstsq(J, r)[0]
        self.params_ = params
        return self


if __name__ == "__main__":
    model = FractionalMaxwellLiquid()
    t = jnp.linspace(0.1, 1.0, 25)
    G = model._predict_relaxation_jax(t, *jnp.array([1.0, 0.5, 1.0]))
    print(jnp.round(model.fit(t, G).params_, 2))
