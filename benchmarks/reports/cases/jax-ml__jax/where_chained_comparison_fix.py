# source: https://github.com/jax-ml/jax/issues/15948
# category: A
# expect: ok
# via: jit-call
# sink: bool-ops
"""The band test combined element-wise with `&`, so jnp.where gets one traced condition and no
Python truth value is needed under jit."""
import jax
import jax.numpy as jnp


def band_index(wavelength):
    below = jnp.where(500 < wavelength, 0, 2)
    inside = jnp.where((500 < wavelength) & (wavelength <= 600), 0, 2)
    return below, inside


if __name__ == "__main__":
    print(band_index(900))
    print(jax.jit(band_index)(550))
