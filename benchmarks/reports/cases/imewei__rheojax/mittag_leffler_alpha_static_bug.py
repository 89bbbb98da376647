# source: https://github.com/imewei/rheojax/commit/f927725c039e3c0015fcc5e14206b839aba08986
# category: B
# expect: raises
# via: partial-jit, static-argnums, method, grad, helper, host-loop
# sink: static-array
"""rheojax's Mittag-Leffler function is jitted with `alpha` and `beta` as static arguments, but the
fractional models call it with the fractional order they are fitting; under `jax.grad` that order
is a tracer, which jit cannot hash as a static argument, so fitting a fractional model fails."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy.special import gamma as jax_gamma


@partial(jax.jit, static_argnums=(1, 2))
def mittag_leffler_e2(z, alpha, beta):
    z = jnp.atleast_1d(jnp.asarray(z))
    series = jnp.zeros_like(z)
    for k in range(8):
        series = series + z**k / jax_gamma(alpha * k + beta)
    z_abs = jnp.maximum(jnp.abs(z), 1e-15)
    if abs(alpha - beta) < 1e-10:
        asymptotic = jnp.sin(jnp.pi * alpha) / (jnp.pi * z_abs)
    else:
        asymptotic = 1.0 / (z_abs * jnp.abs(jax_gamma(1.0 - beta / alpha)))
    asymptotic = jnp.clip(asymptotic, 0.0, 1.0)
    return jnp.where((z < 0) & (z_abs > 2.0), asymptotic, series)


class FractionalMaxwellGel:
    def __init__(self, c_alpha=1e2, alpha=0.5, eta=1e1):
        self.params = jnp.array([c_alpha, alpha, eta])

    def _predict_relaxation(self, t, c_alpha, alpha, eta):
        epsilon = 1e-12
        tau = eta / (c_alpha ** (1.0 / (1.0 - alpha + epsilon)))
        t_safe = jnp.maximum(t, epsilon)
        z = -(t_safe ** (1.0 - alpha)) / tau
        ml_value = mittag_leffler_e2(z, 1.0 - alpha, 1.0 - alpha)  # <-- bug
        return c_alpha * t_safe ** (-alpha) * ml_value

    def loss(self, params, t, G_data):
        c_alpha, alpha, eta = params
        G_pred = self._predict_relaxation(t, c_alpha, alpha, eta)
        return jnp.mean((jnp.log(G_pred) - jnp.log(G_data)) ** 2)

    def fit(self, t, G_data, steps=1, lr=1e-3):
        grad_fn = jax.value_and_grad(self.loss)
        params = self.params
        for _ in range(steps):
            value, g = grad_fn(params, t, G_data)
            params = params - lr * g
        self.params = params
        return value


if __name__ == "__main__":
    t = jnp.logspace(-2, 1, 20)
    truth = FractionalMaxwellGel()
    G_data = truth._predict_relaxation(t, np.float32(1.2e2), np.float32(0.45), np.float32(1.5e1))
    model = FractionalMaxwellGel()
    print(model.fit(t, G_data))
