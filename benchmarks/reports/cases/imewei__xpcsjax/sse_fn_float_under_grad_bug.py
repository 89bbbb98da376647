# source: https://github.com/imewei/xpcsjax/commit/29df9966a34f8f5097253383961b19cba27ab342
# category: A
# expect: raises
# via: grad, factory-closure, jit-decorator, helper
# sink: int-float-bool
"""The gradient diagnostics took `jax.grad` of an SSE helper that returned
`float(jnp.sum(residuals**2))`; under `grad` the sum is a tracer, so `float` cannot turn it into
a Python number and the x-scale recommender failed on first use."""
from types import SimpleNamespace

import jax
import jax.numpy as jnp
import numpy as np


def _create_residual_function(data, analysis_mode):
    t1, t2 = jnp.asarray(data.t1), jnp.asarray(data.t2)
    g2_exp = jnp.asarray(data.g2)
    q = float(data.q)
    param_names = ["D0", "alpha", "D_offset"]

    @jax.jit
    def residual_fn(params):
        D0, alpha, D_offset = params[0], params[1], params[2]
        integral = D0 / (alpha + 1.0) * (t2 ** (alpha + 1.0) - t1 ** (alpha + 1.0)) + D_offset * (t2 - t1)
        g1 = jnp.exp(-0.5 * q ** 2 * integral)
        return (1.0 + 0.3 * jnp.square(g1) - g2_exp).reshape(-1)

    return residual_fn, param_names


def compute_gradient_norms(parameters, data, config, analysis_mode):
    residual_fn, param_names = _create_residual_function(data, analysis_mode)
    param_array = jnp.array([float(parameters[name]) for name in param_names])

    def sse_fn(params):
        residuals = residual_fn(params)
        return float(jnp.sum(residuals**2))  # <-- bug

    gradients = jax.grad(sse_fn)(param_array)
    return {name: float(abs(g)) for name, g in zip(param_names, gradients)}


def compute_optimal_x_scale(parameters, data, config, analysis_mode, min_scale=1e-8, max_scale=1e2):
    gradient_norms = compute_gradient_norms(parameters, data, config, analysis_mode)
    baseline_grad = np.exp(np.mean(np.log(np.maximum([gradient_norms["D0"], gradient_norms["D_offset"]], 1e-10))))
    return {name: float(np.clip(baseline_grad / max(g, 1e-10), min_scale, max_scale))
            for name, g in gradient_norms.items()}


if __name__ == "__main__":
    t = np.linspace(0.01, 1.0, 20)
    t1, t2 = np.meshgrid(t, t, indexing="ij")
    data = SimpleNamespace(t1=t1, t2=t2, q=0.05, g2=1.0 + 0.3 * np.exp(-0.05 ** 2 * 100.0 * np.abs(t2 - t1)))
    params = {"D0": 80.0, "alpha": 0.1, "D_offset": 1.0}
    print(compute_optimal_x_scale(params, data, None, "static_isotropic"))
