# source: https://github.com/imewei/xpcsjax/commit/2a651d26e2f3f8b064092d2bb04576c03e7b96b0
# category: A
# expect: ok
# via: method, jit-call, factory-closure, vmap
# sink: numpy-call
"""The joint residual uses a `jnp` variant of the Fourier-to-per-angle conversion whose basis matrix
and branch are static, so the jitted residual and its Jacobian trace."""
import jax
import jax.numpy as jnp
import numpy as np


class FourierReparameterizer:
    def __init__(self, phi, order=2):
        self.n_phi, self.order = len(phi), order
        self.n_coeffs_per_param = 1 + 2 * order
        self.n_coeffs = 2 * self.n_coeffs_per_param
        self.use_fourier = True
        cols = [np.ones_like(phi)]
        for k in range(1, order + 1):
            cols += [np.cos(k * phi), np.sin(k * phi)]
        self._basis_matrix = np.stack(cols, axis=1)

    def fourier_to_per_angle(self, fourier_coeffs):
        fourier_coeffs = np.asarray(fourier_coeffs, dtype=np.float64)
        if len(fourier_coeffs) != self.n_coeffs:
            raise ValueError(f"Expected {self.n_coeffs} Fourier coefficients, got {len(fourier_coeffs)}")
        n_half = self.n_coeffs_per_param
        contrast = self._basis_matrix @ fourier_coeffs[:n_half]
        offset = self._basis_matrix @ fourier_coeffs[n_half:]
        return contrast, offset

    def fourier_to_per_angle_jax(self, fourier_coeffs):
        coeffs = jnp.asarray(fourier_coeffs)
        if not self.use_fourier:
            return coeffs[: self.n_phi], coeffs[self.n_phi :]
        n_half = self.n_coeffs_per_param
        basis = jnp.asarray(self._basis_matrix, dtype=coeffs.dtype)
        return basis @ coeffs[:n_half], basis @ coeffs[n_half:]


def compute_c2(rate, t, contrast, offset):
    return offset + contrast * jnp.exp(-2.0 * rate * t)


def _fit_joint_multi_phi(fourier, t, c2_data, n_iter=5):
    def residual_fn(x):
        rate, fourier_coeffs = x[0], x[1:]
        contrasts_jax, offsets_jax = fourier.fourier_to_per_angle_jax(fourier_coeffs)
        model = jax.vmap(compute_c2, in_axes=(None, None, 0, 0))(rate, t, contrasts_jax, offsets_jax)
        return (model - c2_data).ravel()

    res_and_jac = jax.jit(lambda x: (residual_fn(x), jax.jacfwd(residual_fn)(x)))
    x = jnp.concatenate([jnp.array([0.5]), jnp.zeros(fourier.n_coeffs).at[0].set(0.2).at[5].set(1.0)])
    for _ in range(n_iter):
        r, J = res_and_jac(x)
        x = x - jnp.linalg.lstsq(J, r)[0]
    return x


if __name__ == "__main__":
    phi = np.deg2rad(np.linspace(-30.0, 30.0, 8))
    fourier = FourierReparameterizer(phi, order=2)
    t = jnp.linspace(0.0, 2.0, 12)
    c2_data = jnp.stack([compute_c2(1.3, t, 0.3 + 0.05 * np.cos(p), 1.0) for p in phi])
    print(_fit_joint_multi_phi(fourier, t, c2_data)[0])
