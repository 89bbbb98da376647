# source: https://github.com/jax-ml/jax/issues/13027
# category: B
# expect: raises
# via: jit-decorator, pytree-class, host-loop
# sink: static-metadata
"""A class registered with `register_pytree_node_class` returns its NumPy array as metadata from
`tree_flatten`.  Hashing the treedef does not complain, so the first jitted call works; the next
call with a fresh instance compares treedefs, NumPy's == is elementwise, and jit raises."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.tree_util.register_pytree_node_class
class A:
    def __init__(self, x):
        self.x = x

    def tree_flatten(self):
        return (), (self.x,)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        () = children
        (x,) = aux_data
        return cls(x)


@jax.jit
def weighted(a, y):
    return jnp.sum(jnp.asarray(a.x) * y)


if __name__ == "__main__":
    y = jnp.ones(3)
    for scale in (1.0, 2.0):
        a = A(np.arange(3.0))
        print(scale, weighted(a, y * scale))  # <-- bug
