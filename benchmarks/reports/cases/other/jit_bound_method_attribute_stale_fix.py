# source: https://openillumi.com/en/en-jax-jit-class-method-stale-cache-fix
# category: C
# expect: ok
# via: jit-call, method, pytree-class
# sink: closure-global
"""The class is registered as a pytree with `x` and `mul` as leaves and the branch is a
`jnp.where`, so the jitted method reads the current `mul` on every call."""
import jax
import jax.numpy as jnp
from jax import jit
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class CustomClass:
    def __init__(self, x, mul):
        self.x = x
        self.mul = mul

    @jit
    def calc(self, y):
        return jnp.where(self.mul, self.x * y, y)

    def tree_flatten(self):
        return (self.x, self.mul), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


if __name__ == "__main__":
    c = CustomClass(2.0, True)
    y = jnp.arange(3.0)
    print(c.calc(y))
    c.mul = False
    print(c.calc(y))
