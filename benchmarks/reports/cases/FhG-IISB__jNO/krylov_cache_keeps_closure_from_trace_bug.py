# source: https://github.com/FhG-IISB/jNO/blob/1b0f3815fd1679662171428ec4a144870a3d49b5/jno/utils/solver/peec.py
# category: C
# expect: raises
# via: jit-call, helper, factory-closure, method
# sink: global-write
"""A built PEEC network caches its compiled Krylov solve in the module-level _KRYLOV_CACHE; the
closure built during the first jax.jit trace captures operators made with jnp there, so a second,
different trace of the same network reuses it and fails with an escaped tracer."""
import numpy as np
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)

SIG = 5.8e7
_KRYLOV_CACHE = {}


class Filaments:
    def __init__(self, n):
        self.ne, self.nn = n, n - 1
        A = np.zeros((n - 1, n))
        for k in range(n - 1):
            A[k, k], A[k, k + 1] = 1.0, -1.0
        self.A = A
        self.length = np.full(n, 2e-3)
        self.area = np.full(n, 2e-6)


def _solve_circuit(fil, sigma, tol=1e-10, restart=16):
    ne, nn = fil.ne, fil.nn
    Rc = jnp.asarray(fil.length) / (sigma * jnp.asarray(fil.area))
    Acj = jnp.asarray(fil.A.T)
    b = jnp.zeros(ne + nn).at[ne].set(1.0)

    key = (id(fil), ne, nn, float(tol), int(restart))
    entry = _KRYLOV_CACHE.get(key)
    cached = entry[1] if (entry is not None and entry[0] is fil) else None

    def M_apply(x, Rc_):
        cur, phi = x[:ne], x[ne:]
        return jnp.concatenate([Rc_ * cur - Acj @ phi, Acj.T @ cur + 1e-9 * phi])  # <-- bug

    if cached is None:

        @jax.jit
        def _run(rhs, Rc_):
            return jax.scipy.sparse.linalg.gmres(
                lambda v: M_apply(v, Rc_), rhs, tol=float(tol), atol=0.0,
                restart=min(int(restart), ne + nn), maxiter=400)[0]

        _KRYLOV_CACHE[key] = (fil, _run)  # <-- bug
    else:
        _run = cached

    x = _run(b, Rc)
    return -x[ne]


class BuiltPEEC:
    def __init__(self, fil):
        self.fil = fil

    def solve(self, sigma=SIG):
        return _solve_circuit(self.fil, sigma)


if __name__ == "__main__":
    built = BuiltPEEC(Filaments(12))
    f = lambda s: built.solve(sigma=SIG * s)  # noqa: E731
    one = float(jax.jit(f)(1.0))
    two = float(jax.jit(lambda s: f(s) + 0.0)(1.0))  # <-- bug
    print(one, two)
