# source: https://stackoverflow.com/questions/78485515
# category: B
# expect: leaks
# via: equinox, pytree-class, jit-call
# sink: static-metadata
"""The asker kept a jnp array in a static field (aux data) of an equinox Module and doubled both
the field and the leaf inside a jitted function.  The static field is not traced on the way in,
but the doubling runs under the trace, so the Module that comes out carries a tracer in its aux
data: the printed field is a tracer instead of numbers, and the tracer escapes the jit."""
import equinox as eqx
import jax
import jax.numpy as jnp


class PytreeImpl(eqx.Module):
    x: jax.Array
    y: jax.Array = eqx.field(static=True)

    def __init__(self, x, y):
        self.x = x
        self.y = y


def times_two(ptree):
    return type(ptree)(ptree.x * 2, ptree.y * 2)  # <-- bug


times_two_jitted = jax.jit(times_two)


if __name__ == "__main__":
    ptree = PytreeImpl(jnp.array([1.0, 2.0]), jnp.array([3.0, 4.0]))
    out = times_two_jitted(ptree)
    print("leaves:", jax.tree_util.tree_leaves(out))
    print("y:", out.y)
