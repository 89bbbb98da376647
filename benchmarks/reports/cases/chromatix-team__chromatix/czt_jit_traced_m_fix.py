# source: https://github.com/chromatix-team/chromatix/pull/150
# category: A
# expect: ok
# via: jit-call
# sink: shape-from-value
"""The chirp Z-transform builds its chirp with jnp.arange(m + n - 1); jitting czt as it stands
makes the output length `m` a tracer, so the arange has no concrete length."""
import jax.numpy as jnp
import jax.random as random
from jax import jit


def czt(x, m, a, w, axis=-1):
    """Chirp Z-transform of `x` along `axis`, sampled at `m` points."""
    n = x.shape[axis]
    n_czt = m + n - 1
    k = jnp.arange(n_czt)
    wk2 = w ** (k**2 / 2)
    Awk2 = a ** -k[:n] * wk2[:n]
    Fwk2 = jnp.fft.fft(1 / jnp.hstack((wk2[n - 1 : 0 : -1], wk2[:m])), n_czt)
    wk2 = wk2[:m]
    x = jnp.moveaxis(x, axis, -1)
    y = jnp.fft.ifft(jnp.fft.fft(x * Awk2, n_czt, axis=-1) * Fwk2, axis=-1)
    y = y[..., n - 1 : n + m - 1] * wk2
    return jnp.moveaxis(y, -1, axis)


def test_czt_jit():
    N = M = 10
    key = random.PRNGKey(0)
    x = random.uniform(key, shape=(N, N)) + 1j * random.uniform(key, shape=(N, N))
    w = jnp.exp(-1j * 2 * jnp.pi / N)
    czt_jit = jit(czt, static_argnums=[1])
    out = czt_jit(x, a=1.0, w=w, m=M)
    print(jnp.allclose(out, jnp.fft.fft(x, axis=-1), atol=1e-3))


if __name__ == "__main__":
    test_czt_jit()
