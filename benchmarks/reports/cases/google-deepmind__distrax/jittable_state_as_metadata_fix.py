# source: https://github.com/google-deepmind/distrax/issues/162
# category: B
# expect: ok
# via: jit-decorator, pytree-class, method, host-loop
# sink: static-metadata
"""`Jittable` now flattens the JAX arrays of `__dict__` as children and keeps only the other values
as static metadata (the fix of the issue), so distributions of the same shapes share one
compilation of the jitted function."""
import abc

import jax
import jax.numpy as jnp


class Jittable(metaclass=abc.ABCMeta):
    """ABC that can be passed as an arg to a jitted fn, with readable state."""

    def __new__(cls, *args, **kwargs):
        del args, kwargs
        try:
            registered_cls = jax.tree_util.register_pytree_node_class(cls)
        except ValueError:
            registered_cls = cls  # already registered
        return object.__new__(registered_cls)

    def tree_flatten(self):
        leaves, treedef = jax.tree_util.tree_flatten(self.__dict__)
        switch = [isinstance(x, (jax.Array, jax.core.Tracer)) for x in leaves]
        children = [leaf if s else None for leaf, s in zip(leaves, switch)]
        metadata = [None if s else leaf for leaf, s in zip(leaves, switch)]
        return children, (metadata, switch, treedef)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        metadata, switch, treedef = aux_data
        leaves = [j if s else p for j, p, s in zip(children, metadata, switch)]
        obj = object.__new__(cls)
        obj.__dict__ = jax.tree_util.tree_unflatten(treedef, leaves)
        return obj


class Normal(Jittable):
    def __init__(self, loc, scale):
        self.loc = jnp.asarray(loc)
        self.scale = jnp.asarray(scale)

    def kl_divergence(self, other):
        ratio = self.scale / other.scale
        return 0.5 * (ratio**2 + ((self.loc - other.loc) / other.scale) ** 2 - 1) - jnp.log(ratio)


@jax.jit
def jitted_kl(dist_0, dist_1):
    return dist_0.kl_divergence(dist_1)


if __name__ == "__main__":
    dist_1 = Normal(jnp.zeros(3), jnp.ones(3))
    for mu in (0.5, 1.0, 1.5):
        dist_0 = Normal(jnp.full(3, mu), jnp.ones(3))
        print(jitted_kl(dist_0, dist_1))
