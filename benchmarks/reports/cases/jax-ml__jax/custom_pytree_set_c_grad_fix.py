# source: https://github.com/jax-ml/jax/issues/18910
# category: C
# expect: ok
# via: grad, jit-call, pytree-class, method
# sink: attribute-write
"""`CPT` no longer mutates itself: `compute_c` returns the value, `get_d` takes it, and `f` keeps
it in a local, so neither `jax.grad` nor `jax.jit` can leave a tracer on the pytree."""
import jax
import jax.numpy as jnp


class CPT:
    __slots__ = ("a", "b", "c")

    def __init__(self, *, a, b):
        self.a = a
        self.b = b

    def compute_c(self, e):
        return self.a * self.b * e

    def get_d(self, c):
        return c * 2 + 1

    def flatten(self):
        return (self.a, self.b), (["a", "b"],)

    @classmethod
    def unflatten(cls, aux, vals):
        return cls(**dict(zip(aux[0], vals)))


jax.tree_util.register_pytree_node(CPT, CPT.flatten, CPT.unflatten)


def f(x, e, cpt):
    e = e.at[1:2].set(x)
    c = cpt.compute_c(e)
    d = cpt.get_d(c)
    return d.sum()


if __name__ == "__main__":
    _2s, _3s, _4s = 2 * jnp.ones(4), 3 * jnp.ones(4), 4 * jnp.ones(4)
    cpt = CPT(a=_2s, b=_3s)
    gf = jax.grad(f)
    jgf = jax.jit(gf)
    print(gf(0.5, _4s, cpt))
    print(jgf(0.5, _4s, cpt))
    # the pytree is used again after the transformations returned
    print(cpt.get_d(cpt.compute_c(_4s)))
