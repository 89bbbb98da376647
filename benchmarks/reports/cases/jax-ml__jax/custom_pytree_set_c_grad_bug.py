# source: https://github.com/jax-ml/jax/issues/18910
# category: C
# expect: raises
# via: grad, jit-call, pytree-class, method
# sink: attribute-write
"""`CPT` is a custom pytree whose `set_c` method stores a value computed from the traced input on
the instance; differentiating `f` with the pytree as a non-differentiated argument leaves the
JVP tracer in `cpt.c` after `jax.grad` returns, and using the pytree afterwards fails with an
UnexpectedTracerError."""
import jax
import jax.numpy as jnp


class CPT:
    __slots__ = ("a", "b", "c")

    def __init__(self, *, a, b):
        self.a = a
        self.b = b

    def set_c(self, e, t=None):
        self.c = self.a * self.b * e  # <-- bug
        return t

    def get_d(self, t=None):
        return self.c * 2 + 1  # <-- bug

    def flatten(self):
        return (self.a, self.b), (["a", "b"],)

    @classmethod
    def unflatten(cls, aux, vals):
        return cls(**dict(zip(aux[0], vals)))


jax.tree_util.register_pytree_node(CPT, CPT.flatten, CPT.unflatten)


def f(x, e, cpt):
    e = e.at[1:2].set(x)
    t = cpt.set_c(e)
    d = cpt.get_d(t)
    return d.sum()


if __name__ == "__main__":
    _2s, _3s, _4s = 2 * jnp.ones(4), 3 * jnp.ones(4), 4 * jnp.ones(4)
    cpt = CPT(a=_2s, b=_3s)
    gf = jax.grad(f)
    jgf = jax.jit(gf)
    print(gf(0.5, _4s, cpt))
    print(jgf(0.5, _4s, cpt))
    # the pytree is used again after the transformations returned
    print(cpt.get_d())
