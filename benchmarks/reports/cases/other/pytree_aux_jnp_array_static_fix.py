# source: https://stackoverflow.com/questions/78485515
# category: B
# expect: ok
# via: equinox, pytree-class, jit-call
# sink: static-metadata
"""The asker kept a jnp array in a static field (aux data) of an equinox Module and doubled both
the field and the leaf inside a jitted function.  As the answer explains, an array belongs among
the leaves: with `y` an ordinary field it is traced with `x`, and the Module that comes out holds
concrete arrays."""
import equinox as eqx
import jax
import jax.numpy as jnp


class PytreeImpl(eqx.Module):
    x: jax.Array
    y: jax.Array

    def __init__(self, x, y):
        self.x = x
        self.y = y


def times_two(ptree):
    return type(ptree)(ptree.x * 2, ptree.y * 2)


times_two_jitted = jax.jit(times_two)


if __name__ == "__main__":
    ptree = PytreeImpl(jnp.array([1.0, 2.0]), jnp.array([3.0, 4.0]))
    out = times_two_jitted(ptree)
    print("leaves:", jax.tree_util.tree_leaves(out))
    print("y:", out.y)
