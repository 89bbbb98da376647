# source: https://github.com/jax-ml/jax/issues/20466
# category: B
# expect: ok
# via: jit-decorator, partial-jit, static-argnums, vmap, pytree-class, dataclass
# sink: static-metadata
"""A pytree dataclass holding an array is passed as a static argument of nested jitted
functions; its `__eq__` compares the arrays.  For the batched run the static argument is bound
with `functools.partial` outside vmap, so vmap only maps `x` and the object reaches the jitted
functions untouched, comparing equal to the earlier cache key."""
import dataclasses
import functools

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass
class SomeStaticType:
    params: jnp.ndarray = dataclasses.field(default_factory=lambda: jnp.zeros((10,)))

    def tree_flatten(self):
        return (self.params,), ("params",)

    @classmethod
    def tree_unflatten(cls, _, children):
        return cls(*children)

    def __hash__(self):
        return 1

    def __eq__(self, other):
        return (self.params == other.params).all()


@functools.partial(jax.jit, static_argnames=("static_arg",))
def inner_func(x, static_arg: SomeStaticType):
    return jnp.sum(x * x + 3 * x + static_arg.params.sum())


@functools.partial(jax.jit, static_argnames=("static_arg",))
def outer_func(x, static_arg: SomeStaticType):
    return inner_func(x, static_arg=static_arg)


if __name__ == "__main__":
    static_arg = SomeStaticType()
    xs = jnp.arange(12.0).reshape(4, 3)
    print(outer_func(xs[0], static_arg=static_arg))
    batched = jax.vmap(functools.partial(outer_func, static_arg=static_arg))(xs)
    print(batched)
