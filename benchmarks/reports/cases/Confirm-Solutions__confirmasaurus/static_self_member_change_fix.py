# source: https://github.com/Confirm-Solutions/confirmasaurus/pull/38
# category: C
# expect: ok
# via: method, pytree-class, jit-decorator
# sink: closure-global
"""Registering `wow` as a pytree whose member `x` is a leaf lets `self` be an ordinary traced
argument, so the jitted method reads the member the object holds at each call."""
import jax


@jax.tree_util.register_pytree_node_class
class wow:
    def __init__(self, x):
        self.x = x

    def tree_flatten(self):
        return (self.x,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    @jax.jit
    def f(self):
        return self.x


if __name__ == "__main__":
    W = wow(10)
    print(W.f())
    W.x = 9
    print(W.f())
