# source: https://github.com/mfschubert/fmmax/pull/54
# category: B
# expect: ok
# via: dataclass, static-argnums, partial-jit
# sink: static-unhashable
"""fmmax's basis.Expansion, a dataclass holding a NumPy array of integer reciprocal-lattice
coefficients, gets a __hash__ over the array's bytes and an __eq__ over its values, so it can be
passed as a static argument of a jitted function."""
import dataclasses
import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as onp


@dataclasses.dataclass
class Expansion:
    basis_coefficients: onp.ndarray

    def __hash__(self) -> int:
        return hash(self.basis_coefficients.tobytes())

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, Expansion):
            return False
        if self.basis_coefficients.shape != other.basis_coefficients.shape:
            return False
        return bool(onp.all(self.basis_coefficients == other.basis_coefficients))

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
    print(fourier_convolution_matrix(x, expansion=expansion).shape)
