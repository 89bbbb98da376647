# source: https://github.com/astro-informatics/s2fft/commit/364a6f6416665ad9e4bdc3684954f4a18a9e1cab
# category: B
# expect: ok
# via: partial-jit, static-argnums, helper
# sink: static-spec
"""`inverse_jax` gained a `use_healpix_custom_primitive` flag (the `"jax_cuda"` method binds it
with `partial(inverse_jax, use_healpix_custom_primitive=True)`), but the flag was left out of
the jit's `static_argnums`, so for HEALPix sampling the `if use_healpix_custom_primitive:`
branch sees a traced bool.  The fix adds its index, 9, to the static arguments."""
from functools import partial

import jax.numpy as jnp
from jax import jit


def healpix_ifft(ftm, L, nside, backend):
    # the "cuda" backend is a custom primitive of the same FFT
    if backend not in ("jax", "cuda"):
        raise ValueError(backend)
    return jnp.fft.ifft(jnp.fft.ifftshift(ftm, axes=1), axis=1, norm="forward").ravel()[: 12 * nside**2]


@partial(jit, static_argnums=(1, 3, 4, 5, 7, 8, 9))
def inverse_jax(flm, L, spin=0, nside=None, sampling="mw", reality=False, precomps=None,
                spmd=False, L_lower=0, use_healpix_custom_primitive=False):
    norm = jnp.sqrt((2 * jnp.arange(L_lower, L) + 1) / (4 * jnp.pi))
    flm = flm.at[L_lower:].set(flm[L_lower:] * norm[:, None])
    ftm = jnp.tile(flm.sum(axis=0), (4 * nside - 1, 1)) * (-1) ** jnp.abs(spin)
    if sampling.lower() == "healpix":
        if use_healpix_custom_primitive:
            return healpix_ifft(ftm, L, nside, "cuda")
        else:
            return healpix_ifft(ftm, L, nside, "jax")
    return jnp.fft.ifft(jnp.fft.ifftshift(ftm, axes=1), axis=1, norm="forward")


_inverse_functions = {
    "jax": inverse_jax,
    "jax_cuda": partial(inverse_jax, use_healpix_custom_primitive=True),
}


def inverse(flm, L, spin=0, nside=None, sampling="mw", method="jax", reality=False):
    return _inverse_functions[method](flm, L, spin, nside, sampling, reality)


if __name__ == "__main__":
    L, nside = 4, 2
    flm = jnp.arange(L * (2 * L - 1), dtype=jnp.complex64).reshape(L, 2 * L - 1) / 10
    f = inverse(flm, L, nside=nside, sampling="healpix", method="jax_cuda")
    print(f.shape, jnp.round(jnp.abs(f).sum(), 4))
