# source: https://github.com/jax-ml/jax/issues/15338
# category: R
# expect: ok
# via: jit-call, method, pytree-class, static-argnums, host-loop
# sink: fresh-callable
"""jax.jit(a.do, ...) is written inside a loop: every attribute access makes a new bound method,
so each iteration traces again, while jitting the free function that calls obj.do traces once."""
import jax
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class A:
    def do(self, key, shape):
        print("A.do()")
        return jax.random.uniform(key, shape)

    def tree_flatten(self):
        return (), {}

    @classmethod
    def tree_unflatten(cls, treedef, leaves):
        return cls(*leaves, **treedef)


def do(obj, key, shape):
    print("do()")
    return obj.do(key, shape)


if __name__ == "__main__":
    a = A()
    key = jax.random.PRNGKey(42)
    for _ in range(3):
        key, subkey = jax.random.split(key)
        out = jax.jit(do, static_argnums=2)(a, subkey, (2, 3, 4))
    print(out.shape)
