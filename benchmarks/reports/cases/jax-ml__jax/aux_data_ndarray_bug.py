# source: https://github.com/jax-ml/jax/issues/28659
# category: B
# expect: raises
# via: jit-decorator, pytree-class, dataclass, host-loop
# sink: static-metadata
"""A pytree class puts a NumPy array in its aux_data; once jit's cache holds an entry, the next
call compares treedefs, the array's == is elementwise, and the lookup fails with a ValueError."""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np


@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass
class HasArray:
    x: object
    y: np.ndarray

    def tree_flatten(self):
        return (self.x,), (self.y,)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        (x,) = children
        (y,) = aux_data
        return cls(x, y)


@jax.jit
def f(x: HasArray):
    return x.x + sum(x.y)


def test_bug():
    for n in range(20):
        out = f(HasArray(x=jnp.full(3, n), y=np.array([1, 2, 3])))  # <-- bug
    return out


if __name__ == "__main__":
    print(test_bug())
