# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/nnx/module_test.py#L1187
# category: B
# expect: ok
# via: flax-nnx, dataclass, pytree-class, jit-decorator
# sink: static-array
"""Flax's tests declare an `nnx.dataclass` Pytree whose field `a: jax.Array = nnx.static()` and
construct it with an array; since Flax 0.12 a static field holding data is an error.  Declaring
the field with `nnx.data()` makes the array a traced leaf."""
import jax
import jax.numpy as jnp
from flax import nnx


@nnx.dataclass
class Bar(nnx.Pytree):
    a: jax.Array = nnx.data()


@jax.jit
def shift(bar, x):
    return x - bar.a


if __name__ == "__main__":
    m = Bar(a=jnp.array(3))
    print(shift(m, jnp.arange(5)))
