# source: https://github.com/NTT123/pax/blob/8df0e7510dee58df19d71ae3680716e70a7c4e01/tests/test_side_effects.py
# category: C
# expect: ok
# via: pytree-class, method, wrapper, jit-decorator
# sink: attribute-write
"""PAX's `pax.jit_` wraps the function so that the traced copies of the input modules are returned
with the output and copied back onto the caller's modules, so the count survives the jitted call."""
import functools

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
        self.counter = self.counter + 1
        return x


def jit_(fn):
    def get_modules(v):
        leaves = jax.tree_util.tree_leaves(v, is_leaf=lambda x: isinstance(x, Module))
        return [m for m in leaves if isinstance(m, Module)]

    @jax.jit
    def _fn(*args):
        out = fn(*args)
        return out, get_modules(args)

    @functools.wraps(fn)
    def wrapper(*args):
        modules = get_modules(args)
        out, updated = _fn(*args)
        for m, um in zip(modules, updated):
            m.__dict__.update(um.__dict__)
        return out

    return wrapper


@jit_
def fwd(mod, x):
    return mod(x)


if __name__ == "__main__":
    m = M()
    m(1)
    print("after eager call:", m.counter)
    out = fwd(m, jnp.asarray(1.0))
    print("after jitted call:", m.counter, out)
