# source: https://github.com/google-deepmind/distrax/issues/162
# category: B
# expect: raises
# via: jit-decorator, pytree-class, method, host-loop
# sink: static-metadata
"""Distrax's `Jittable` flattened a distribution into no leaves and put its whole `__dict__`, arrays
included, in the static treedef; calling a jitted function with a second distribution made JAX
compare that metadata, arrays and all, and the call failed."""
import abc

import jax
import jax.numpy as jnp


class Jittable(metaclass=abc.ABCMeta):
    """ABC that can be passed as an arg to a jitted fn, with readable state."""

    def __new__(cls, *args, **kwargs):
        try:
            registered_cls = jax.tree_util.register_pytree_node_class(cls)
        except ValueError:
            registered_cls = cls  # already registered
        instance = super(Jittable, cls).__new__(registered_cls)
        instance._args = args
        instance._kwargs = kwargs
        return instance

    def tree_flatten(self):
        return ((), ((self._args, self._kwargs), self.__dict__))  # <-- bug

    @classmethod
    def tree_unflatten(cls, aux_data, _):
        (args, kwargs), state_dict = aux_data
        obj = cls(*args, **kwargs)
        obj.__dict__ = state_dict
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
        print(jitted_kl(dist_0, dist_1))  # <-- bug
