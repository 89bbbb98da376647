# source: https://github.com/jax-ml/jax/issues/7545
# category: A
# expect: raises
# via: lax-fori, dict-of-arrays, grad
# sink: list-index
"""A visibility model sums source contributions in a lax.fori_loop, indexing the source arrays it
reads from its params dict with the loop counter; jax.grad works, but check_grads feeds the params
as NumPy arrays, and a NumPy array indexed by the traced counter raises."""
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.test_util import check_grads


def phase_delay(lm, uvw, frequency):
    l = lm[:, 0, None, None]
    m = lm[:, 1, None, None]
    n = jnp.sqrt(1.0 - l ** 2 - m ** 2) - 1.0
    real_phase = -2 * jnp.pi * (l * uvw[None, :, 0, None] + m * uvw[None, :, 1, None]
                                + n * uvw[None, :, 2, None]) * frequency[None, None, :]
    return jnp.exp(1j * real_phase)


def vis(params, uvw, frequency):
    lm = params["lm"]
    stokes = params["stokes"]
    source = lm.shape[0]

    def body(s, acc):
        phdelay = phase_delay(lm[None, s], uvw, frequency)  # <-- bug
        brness = stokes[None, s]
        return acc + jnp.einsum("srf,si->rfi", phdelay, brness)

    init = jnp.zeros((uvw.shape[0], frequency.shape[0], stokes.shape[1]), jnp.complex64)
    return lax.fori_loop(0, source, body, init)


if __name__ == "__main__":
    rng = np.random.RandomState(0)
    params = {"lm": jnp.asarray(rng.uniform(-0.1, 0.1, (3, 2))),
              "stokes": jnp.asarray(rng.rand(3, 4))}
    uvw = jnp.asarray(rng.rand(5, 3))
    frequency = jnp.linspace(0.1, 0.2, 4)
    print(jnp.abs(vis(params, uvw, frequency)).sum())
    check_grads(lambda p: jnp.abs(vis(p, uvw, frequency)).sum(), (params,), order=1, modes=["rev"], eps=1e-2)
    print("grads ok")
