# source: https://github.com/qutip/qutip-jax/issues/34
# category: A
# expect: ok
# via: method, class-attribute, jit-decorator, helper
# sink: bool-ops
"""tr() selects the real part with jnp.where on the traced Hermiticity test instead of a Python
conditional, so a Qobj built from traced values can be traced."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["tol"])
def _isherm(matrix, tol):
    return jnp.allclose(matrix, matrix.T.conj(), atol=tol, rtol=0)


class Qobj:
    def __init__(self, arg):
        self._data = jnp.asarray(arg)
        self._isherm = None

    @property
    def isherm(self):
        if self._isherm is None:
            self._isherm = _isherm(self._data, tol=1e-12)
        return self._isherm

    def dag(self):
        return Qobj(self._data.T.conj())

    def tr(self):
        out = jnp.trace(self._data)
        return jnp.where(self.isherm, out.real, out)


@jax.jit
def tmp(a):
    m = Qobj(jnp.array([[1.0, a], [jnp.conjugate(a), 1.0]]))
    return m.tr()


if __name__ == "__main__":
    print(Qobj(jnp.eye(2)).tr())
    print(tmp(1.0 - 1.0j))
