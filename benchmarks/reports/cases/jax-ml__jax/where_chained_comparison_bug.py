# source: https://github.com/jax-ml/jax/issues/15948
# category: A
# expect: raises
# via: jit-call
# sink: bool-ops
"""A wavelength band test written as a chained comparison, 500 < w <= 600, inside jnp.where:
Python expands it to (500 < w) and (w <= 600), and under jit the `and` asks for the truth value
of a traced bool (ConcretizationTypeError)."""
import jax
import jax.numpy as jnp


def band_index(wavelength):
    below = jnp.where(500 < wavelength, 0, 2)
    inside = jnp.where(500 < wavelength <= 600, 0, 2)  # <-- bug
    return below, inside


if __name__ == "__main__":
    print(band_index(900))
    print(jax.jit(band_index)(550))
