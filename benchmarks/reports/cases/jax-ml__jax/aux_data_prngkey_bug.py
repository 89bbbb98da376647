# source: https://github.com/jax-ml/jax/issues/14718
# category: B
# expect: raises
# via: jit-decorator, pytree-class, dataclass
# sink: static-metadata
"""A dataclass registered as a pytree returns a PRNG key array as its aux_data; jit accepts it the
first time, but a second call with another key has to compare the two arrays as metadata and fails."""
import dataclasses

import jax


@dataclasses.dataclass
class Foo:
    a: int
    b: jax.Array


def flattten(m: Foo):
    return (m.a,), m.b


def unflatten(aux_data, children):
    return Foo(a=children[0], b=aux_data)


jax.tree_util.register_pytree_node(Foo, flattten, unflatten)


@jax.jit
def f(m: Foo):
    return m.a + m.b


if __name__ == "__main__":
    module = Foo(a=3, b=jax.random.PRNGKey(5))
    print(f(module))
    module = Foo(a=3, b=jax.random.PRNGKey(6))
    print(f(module))  # <-- bug
