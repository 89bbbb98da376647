# source: https://github.com/imewei/rheojax/commit/5891e9b184bb10b9c084a0863646d4d79b74e882
# category: A
# expect: raises
# via: method, grad, jit-call, host-loop, helper
# sink: int-float-bool
"""The fractional Burgers model logged its fractional order on every evaluation with
`alpha=float(alpha) if hasattr(alpha, "item") else alpha`; the log arguments are evaluated even
when debug logging is off, so in the jitted gradient of the Bayesian log-density the traced
`alpha` reaches `float`."""
import jax
import jax.numpy as jnp


class StructLogger:
    def __init__(self, enabled=False):
        self.enabled = enabled

    def debug(self, msg, **fields):
        if self.enabled:
            print(msg, fields)


logger = StructLogger()


class FractionalBurgersModel:
    def _predict_creep(self, t, Jg, eta1, Jk, alpha, tau_k):
        return Jg + t / eta1 + Jk * (1.0 - jnp.exp(-((t / tau_k) ** alpha)))

    def model_function(self, X, params, test_mode="creep"):
        Jg, eta1, Jk, alpha, tau_k = params[0], params[1], params[2], params[3], params[4]
        logger.debug(
            "model_function evaluation",
            test_mode=str(test_mode),
            alpha=float(alpha) if hasattr(alpha, "item") else alpha,  # <-- bug
            input_shape=X.shape if hasattr(X, "shape") else len(X),
        )
        return self._predict_creep(X, Jg, eta1, Jk, alpha, tau_k)

    def fit_bayesian(self, X, y, num_steps=10, step_size=1e-5):
        """Stands in for the NUTS run: a jitted gradient of the log-density drives the chain."""

        def log_density(params):
            pred = self.model_function(X, params, test_mode="creep")
            return -0.5 * jnp.sum(((y - pred) / 0.05) ** 2)

        value_and_grad = jax.jit(jax.value_and_grad(log_density))
        params = jnp.array([0.8, 15.0, 1.5, 0.4, 1.0])
        key = jax.random.PRNGKey(0)
        for _ in range(num_steps):
            key, sub = jax.random.split(key)
            _, g = value_and_grad(params)
            noise = jax.random.normal(sub, params.shape)
            params = params + step_size * g + jnp.sqrt(2 * step_size) * 1e-2 * noise
            params = params.at[3].set(jnp.clip(params[3], 0.05, 0.95))
        return params

if __name__ == "__main__":
    model = FractionalBurgersModel()
    t = jnp.linspace(0.1, 10.0, 30)
    y = model._predict_creep(t, 1.0, 20.0, 2.0, 0.5, 1.5)
    params = model.fit_bayesian(t, y)
    print(jnp.round(params, 3))
