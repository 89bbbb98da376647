# source: https://github.com/ignaciomagana/darksirens/blob/271da5f00d8e566cb499053e85699d18d0234f52/tests/test_sky_models.py
# category: C
# expect: ok
# via: jit-decorator, helper, method
# sink: global-write
"""The sky model builds its Fibonacci nodes with NumPy on the host, so constructing it on first use
inside the jitted likelihood caches plain arrays in the registry and later retraces work."""
import numpy as np
import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
from jax.scipy.special import logsumexp


def _sphere_rbf(A, B, amp, ls):
    d2 = jnp.clip(2.0 - 2.0 * (A @ B.T), 0.0, 4.0)
    return amp ** 2 * jnp.exp(-0.5 * d2 / ls ** 2)


def _fibonacci_sphere(n):
    i = np.arange(n, dtype=np.float32)
    golden = np.pi * (3.0 - np.sqrt(5.0))
    z = 1.0 - 2.0 * (i + 0.5) / n
    r = np.sqrt(np.clip(1.0 - z * z, 0.0, 1.0))
    phi = golden * i
    return np.stack([r * np.cos(phi), r * np.sin(phi), z], axis=-1).astype(np.float32)


class SphereGPSky:
    def __init__(self, n_inducing=8, n_quad=32):
        self._M = int(n_inducing)
        self._Z = _fibonacci_sphere(self._M)
        self._Zq = _fibonacci_sphere(int(n_quad))

    def log_g_sky(self, nx, ny, nz, z, theta):
        amp, ls, xi = jnp.exp(theta[0]), jnp.exp(theta[1]), theta[2:2 + self._M]
        K = _sphere_rbf(self._Z, self._Z, amp, ls) + 1e-4 * amp ** 2 * jnp.eye(self._M)
        alpha = jsl.solve_triangular(jnp.linalg.cholesky(K), xi, lower=True, trans=1)
        f = _sphere_rbf(jnp.stack([nx, ny, nz], axis=-1), self._Z, amp, ls) @ alpha
        fq = _sphere_rbf(self._Zq, self._Z, amp, ls) @ alpha
        return f - (logsumexp(fq) - jnp.log(fq.shape[0]))


_SKY_FACTORIES = {"sphere_gp": SphereGPSky}
_SKY_REGISTRY: dict = {}


def get_sky_model(sky_model):
    if sky_model not in _SKY_REGISTRY:
        _SKY_REGISTRY[sky_model] = _SKY_FACTORIES[sky_model]()
    return _SKY_REGISTRY[sky_model]


def sky_model_parser(sky_model):
    return get_sky_model(sky_model).log_g_sky


THETA = jnp.concatenate([jnp.array([0.0, -0.5]), 0.3 * jnp.ones(8)])


@jax.jit
def total(x):
    log_g = sky_model_parser("sphere_gp")(x, jnp.zeros_like(x), jnp.sqrt(1.0 - x ** 2), jnp.zeros_like(x), THETA)
    return jnp.sum(log_g) + jnp.sum(x)


if __name__ == "__main__":
    print(float(total(jnp.full(3, 0.6))))
    print(float(total(jnp.full(4, 0.6))))
