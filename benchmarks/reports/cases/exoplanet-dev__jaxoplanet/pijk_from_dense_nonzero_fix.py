# source: https://github.com/exoplanet-dev/jaxoplanet/commit/72c4c6a0ccc8cf4bf27d0bc362053331db33b47c
# category: A
# expect: ok
# via: equinox, class-attribute, jit-decorator, dict-of-arrays
# sink: python-if
"""Pijk.from_dense kept only the nonzero polynomial coefficients with `if x[i] != 0:`; when the
dense vector comes from traced limb-darkening coefficients inside a jitted light curve, the
comparison is a traced boolean."""
from collections import defaultdict

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


class Pijk(eqx.Module):
    data: dict
    degree: int = eqx.field(static=True)

    def __init__(self, data):
        self.data = dict(data)
        self.degree = max(self.ijk2lm(*ijk)[0] for ijk in data.keys())

    @staticmethod
    def ijk2lm(i, j, k):
        nu, mu = (2 * j, 2 * i) if k == 0 else (2 * j + 1, 2 * i + 1)
        return int((nu + mu) / 2), int((nu - mu) / 2)

    @staticmethod
    def n2ijk(n):
        l = int(np.floor(np.sqrt(n)))
        m = n - l**2 - l
        mu, nu = l - m, l + m
        return (mu // 2, nu // 2, 0) if nu % 2 == 0 else ((mu - 1) // 2, (nu - 1) // 2, 1)

    def index(self, i, j, k):
        l, m = self.ijk2lm(i, j, k)
        return (l + 1) * l + m

    def todense(self):
        out = jnp.zeros((self.degree + 1) ** 2)
        for ijk, value in self.data.items():
            out = out.at[self.index(*ijk)].set(value)
        return out

    @classmethod
    def from_dense(cls, x, degree):
        data = defaultdict(float)
        n = (degree + 1) ** 2
        for i in range(n):
            data[Pijk.n2ijk(i)] = x[i]
        return cls(data)


def U(udeg):
    return np.tril(np.ones((udeg + 1, (udeg + 1) ** 2)), k=udeg)


@jax.jit
def limb_darkening_polynomial(u1, u2):
    u = jnp.array([1.0, u1, u2])
    pu = Pijk.from_dense(u @ U(2), degree=2)
    return pu.todense()


if __name__ == "__main__":
    print(limb_darkening_polynomial(0.3, 0.2))
