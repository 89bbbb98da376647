# source: https://github.com/choderalab/pymbar/commit/758a02ae9bdd8b06d91d454a457281a73fce0749
# category: R
# expect: recompiles
# via: jit-call, method, factory-closure, wrapper, class-attribute, host-loop
# sink: fresh-callable
"""pymbar's MBAR constructor instanced a new JAX solver every time, and each solver built its
own closures over itself and jitted them on first use, so every new MBAR object (a bootstrap
sample, another data set of the same size) traced and compiled the solver again.  The fix keeps
one instance per accelerator name and hands it to every MBAR."""
from functools import wraps

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


def generate_static_self_consistent_update(solver):
    def self_consistent_update(u_kn, N_k, f_k):
        log_denominator_n = solver.logsumexp(f_k - u_kn.T, b=N_k, axis=1)
        return -solver.logsumexp(-log_denominator_n - u_kn, axis=1)

    return self_consistent_update


class MBARSolverJAX:
    JITABLE_API_METHODS = ("self_consistent_update",)

    def __init__(self):
        self._static_self_consistent_update = generate_static_self_consistent_update(self)
        for method in self.JITABLE_API_METHODS:
            static = getattr(self, f"_static_{method}")
            setattr(self, method, self._precondition_jit(static))

    @property
    def logsumexp(self):
        return logsumexp

    def _precondition_jit(self, jitable_fn):
        @wraps(jitable_fn)
        def staggered_jit(*args, **kwargs):
            jited_fn = jax.jit(jitable_fn)
            return jited_fn(*args, **kwargs)

        return staggered_jit


ACCELERATOR_MAP = {"jax": MBARSolverJAX}


def get_accelerator(accelerator_name):
    return ACCELERATOR_MAP[(accelerator_name or "jax").lower()]


class MBAR:
    def __init__(self, u_kn, N_k, accelerator=None, n_iterations=20):
        self.solver = get_accelerator(accelerator)()
        f_k = jnp.zeros(u_kn.shape[0])
        for _ in range(n_iterations):
            f_k = self.solver.self_consistent_update(u_kn, N_k, f_k)  # <-- bug
            f_k = f_k - f_k[0]
        self.f_k = f_k


if __name__ == "__main__":
    N_k = jnp.array([20.0, 20.0, 20.0])
    for sample in range(3):  # bootstrap: a new MBAR on resampled energies of the same shape
        u_kn = jax.random.uniform(jax.random.PRNGKey(sample), (3, 60)) * jnp.arange(1.0, 4.0)[:, None]
        mbar = MBAR(u_kn, N_k)
        print(sample, [round(float(f), 4) for f in mbar.f_k])
