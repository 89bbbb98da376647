# source: https://github.com/jax-ml/jax/issues/20466
# category: B
# expect: raises
# via: jit-decorator, partial-jit, static-argnums, vmap, pytree-class, dataclass
# sink: static-metadata
"""A pytree dataclass holding an array is passed as a static argument of nested jitted
functions; its `__eq__` compares the arrays.  A single call works, but the same function
vmapped with `in_axes=None` for the static argument hands the object through vmap, which
rebuilds it around tracers; the cache lookup then compares it with the earlier key and the
array comparison cannot be turned into a bool."""
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
    batched = jax.vmap(outer_func, in_axes=(0, None))(xs, static_arg)  # <-- bug
    print(batched)
