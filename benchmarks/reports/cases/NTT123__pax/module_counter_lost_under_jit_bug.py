# source: https://github.com/NTT123/pax/blob/8df0e7510dee58df19d71ae3680716e70a7c4e01/tests/test_side_effects.py
# category: C
# expect: stale
# via: pytree-class, method, jit-decorator
# sink: attribute-write
"""A PAX module counts its calls in `self.counter`; called through a plain `jax.jit` function the
module is flattened and rebuilt inside the trace, so the increment lands on a throw-away copy and
the caller's module keeps its old count (PAX's test pins this down before adding `pax.jit_`)."""
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node


class Module:
    """Stateful pytree: array attributes are leaves, everything else is static."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        register_pytree_node(cls, cls.tree_flatten, cls.tree_unflatten)

    def tree_flatten(self):
        names = sorted(self.__dict__)
        leaves = [k for k in names if isinstance(self.__dict__[k], jax.Array)]
        static = tuple((k, self.__dict__[k]) for k in names if k not in leaves)
        return [self.__dict__[k] for k in leaves], (tuple(leaves), static)

    @classmethod
    def tree_unflatten(cls, aux, children):
        leaves, static = aux
        obj = object.__new__(cls)
        obj.__dict__.update(static)
        obj.__dict__.update(zip(leaves, children))
        return obj


class M(Module):
    def __init__(self):
        super().__init__()
        self.counter = 0

    def __call__(self, x):
        self.counter = self.counter + 1  # <-- bug
        return x


@jax.jit
def fwd(mod, x):
    return mod(x)


if __name__ == "__main__":
    m = M()
    m(1)
    print("after eager call:", m.counter)
    out = fwd(m, jnp.asarray(1.0))
    print("after jitted call:", m.counter, out)
