# source: https://github.com/imewei/rheojax/commit/f927725c039e3c0015fcc5e14206b839aba08986
# category: A
# expect: ok
# via: method, jit-call, factory-closure, host-loop
# sink: item
"""The fractional order is clipped with `jnp.clip` and the Mittag-Leffler function takes it as a
traced argument (no static arguments), so the jitted residual and Jacobian trace."""
import jax
import jax.numpy as jnp
from jax.scipy.special import gamma as jax_gamma


@jax.jit
def mittag_leffler_e2(z, alpha, beta):
    k = jnp.arange(40.0)
    terms = z[..., None] ** k / jax_gamma(alpha * k + beta)
    return jnp.sum(terms, axis=-1)


class FractionalMaxwellLiquid:
    def _predict_relaxation_jax(self, t, Gm, alpha, tau_alpha):
        epsilon = 1e-12
        # Clip alpha to safe range (works with JAX tracers)
        alpha_safe = jnp.clip(alpha, epsilon, 1.0 - epsilon)
        ml_alpha = 1.0 - alpha_safe
        ml_beta = 1.0 - alpha_safe
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
