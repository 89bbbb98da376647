# source: https://github.com/jax-ml/jax/issues/14033
# category: B
# expect: raises
# via: jit-decorator, pytree-class
# sink: static-metadata
"""A class keeps its only member in aux_data as a trace-time constant; given a jax array there, the
member is turned into a tracer during tracing and comparing it in Python raises a concretization error."""
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class CustomValue:
    def __init__(self, a):
        self.a = a

    def tree_flatten(self):
        return (), (self.a,)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(*aux_data)


@jax.jit
def fun(x):
    if x.a == 1:  # <-- bug
        return jnp.ones(3)
    return jnp.zeros(3)


if __name__ == "__main__":
    print(fun(CustomValue(jnp.array(1.0))))
