# source: https://github.com/HajimeKawahara/exojax/commit/34fb6b5f5828424d715058db4ed32e238b527952
# category: A
# expect: ok
# via: jit-call, grad, helper, host-loop
# sink: python-if
"""response.ipgauss_sampling warned when the observed wavenumber grid was not covered by the
model grid, using np.min/np.max and a Python `or`; when the spectrum model was differentiated
and jitted with the observed grid as an argument, NumPy was handed a tracer."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import jit

c = 299792.458  # km/s


def ipgauss_sampling(nusd, nus, F0, beta, RV):
    """Apply the Gaussian IP response + sampling to a spectrum F."""
    # The following check should be placed as another function.
    # if np.min(nusd) < np.min(nus) or np.max(nusd) > np.max(nus):
    #     print("WARNING: the observational grid is not fully covered by the model grid.")

    @jit
    def ipgauss_sampling_jax(nusd, nus, F0, beta, RV):
        dvmat = jnp.array(c * jnp.log(nusd[None, :] / nus[:, None]))
        kernel = jnp.exp(-(dvmat + RV) ** 2 / (2.0 * beta ** 2))
        kernel = kernel / jnp.sum(kernel, axis=0)
        return kernel.T @ F0

    return ipgauss_sampling_jax(nusd, nus, F0, beta, RV)


nus = jnp.exp(jnp.linspace(jnp.log(4200.0), jnp.log(4300.0), 200))
beta = c / (2.0 * np.sqrt(2.0 * np.log(2.0)) * 100000.0)


def model_c(params, nu1):
    depth, RV = params
    F0 = 1.0 - depth * jnp.exp(-((nus - 4250.0) / 0.5) ** 2)
    return ipgauss_sampling(nu1, nus, F0, beta, RV)


def objective(params, nusd, nflux):
    f = nflux - model_c(params, nusd)
    return jnp.dot(f, f)


if __name__ == "__main__":
    nusd = jnp.linspace(4210.0, 4290.0, 60)
    nflux = 1.0 - 0.6 * jnp.exp(-((nusd - 4250.0) / 0.5) ** 2)
    params = jnp.array([0.4, 0.0])
    step = jax.jit(jax.grad(objective))
    for _ in range(5):
        params = params - 1.0e-2 * step(params, nusd, nflux)
    print(params)
