# source: https://github.com/mfschubert/fmmax/pull/54
# category: B
# expect: raises
# via: dataclass, static-argnums, partial-jit
# sink: static-unhashable
"""fmmax's basis.Expansion is a plain dataclass holding a NumPy array of integer reciprocal-lattice
coefficients; a dataclass with eq and no frozen flag has no __hash__, so passing an Expansion as a
static argument of a jitted function fails until the PR gives it __hash__ and __eq__."""
import dataclasses
import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as onp


@dataclasses.dataclass
class Expansion:
    basis_coefficients: onp.ndarray

    @property
    def num_terms(self) -> int:
        return self.basis_coefficients.shape[-2]


@functools.partial(jax.jit, static_argnames=("expansion",))
def fourier_convolution_matrix(x: jnp.ndarray, expansion: Expansion) -> jnp.ndarray:
    x_fft = jnp.fft.fft2(x)
    idx = expansion.basis_coefficients
    i = idx[:, onp.newaxis, 0] - idx[onp.newaxis, :, 0]
    j = idx[:, onp.newaxis, 1] - idx[onp.newaxis, :, 1]
    return x_fft[i, j] / x.size


if __name__ == "__main__":
    expansion = Expansion(onp.array([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1]]))
    x = jnp.ones((8, 8)).at[2:5, 2:5].set(4.0)
    print(fourier_convolution_matrix(x, expansion=expansion).shape)  # <-- bug
