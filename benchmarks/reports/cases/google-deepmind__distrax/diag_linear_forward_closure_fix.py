# source: https://github.com/google-deepmind/distrax/pull/290
# category: C
# expect: ok
# via: jit-call, pytree-class, class-attribute, method
# sink: attribute-write
"""`DiagLinear` implements `forward` as a method that looks up `self._bijector` when called, as the
pull request does, so a `MultivariateNormalDiag` returned from a jitted function carries no bound
method (and no tracer) in its metadata."""
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
            registered_cls = cls  # Already registered.
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


class ScalarAffine(Jittable):
    def __init__(self, shift, scale):
        self._shift, self._scale = shift, scale

    def forward(self, x):
        return self._scale * x + self._shift


class DiagLinear(Jittable):
    def __init__(self, diag):
        self._diag = diag
        self._bijector = ScalarAffine(shift=jnp.zeros_like(diag), scale=diag)

    def forward(self, x):
        return self._bijector.forward(x)


class MultivariateNormalDiag(Jittable):
    def __init__(self, loc, scale_diag=None):
        self._loc = loc
        self._scale = DiagLinear(jnp.ones_like(loc) if scale_diag is None else scale_diag)

    def sample(self, seed):
        return self._loc + self._scale.forward(jax.random.normal(seed, self._loc.shape))


if __name__ == "__main__":
    jitted_mvn = jax.jit(lambda: MultivariateNormalDiag(loc=jnp.zeros(1)))
    print("Creating jitted multivariate normal distribution")
    dist = jitted_mvn()
    print(dist._loc)
