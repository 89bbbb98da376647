# source: https://github.com/proximafusion/vmecpp/blob/0a23d7c57bf98f2aac8ade31c608060efd02efc5/tests/test_autodiff_wout.py
# category: R
# expect: ok
# via: pytree-class, jit-decorator, host-loop
# sink: static-metadata
"""VMEC++'s VmecWOut output is a pytree whose array fields are leaves; if the solver's scalar
diagnostics (the iteration count `niter`) ride in the treedef as static data, two equilibria that
differ only in how many iterations they took compile a jitted objective twice.  The test asserts
one cache entry after calling it on a wout and on a copy with `niter + 1`.  (vmecpp is not
installed: VmecWOut is reduced here.)"""
import dataclasses

import jax
import jax.numpy as jnp

WOUT_QUANTITIES = ("aspect", "bmnc")
DIAGNOSTICS = ("niter",)


@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass(frozen=True)
class VmecWOut:
    aspect: jax.Array
    bmnc: jax.Array
    niter: int
    ns: int

    def tree_flatten(self):
        leaves = tuple(getattr(self, name) for name in WOUT_QUANTITIES + DIAGNOSTICS)
        return leaves, (self.ns,)

    @classmethod
    def tree_unflatten(cls, aux, leaves):
        (ns,) = aux
        return cls(*leaves, ns=ns)

    def model_copy(self, update):
        return dataclasses.replace(self, **update)


@jax.jit
def scaled_aspect(wout):
    return 2.0 * wout.aspect


if __name__ == "__main__":
    solovev_wout = VmecWOut(aspect=jnp.asarray(5.3), bmnc=jnp.ones((55, 6)), niter=812, ns=55)
    other = solovev_wout.model_copy(update={"niter": solovev_wout.niter + 1})
    print(scaled_aspect(solovev_wout))
    print(scaled_aspect(other))
