# source: https://github.com/jax-ml/jax/issues/5454
# category: A
# expect: raises
# via: vmap, factory-closure
# sink: shape-from-value
"""An inner function builds jnp.arange(i) to pick the first i rows and sum them; it works called with
Python ints, but vmapped over an array of bounds the length is a tracer and arange cannot size it."""
import jax.numpy as jnp
import numpy as np
from jax import vmap


def testSimpleRangeInVMap(parts):
    def innerRange(i):
        inds = jnp.arange(i)  # <-- bug
        selected = parts[inds]
        p = jnp.sum(selected, axis=0)
        return p

    print(innerRange(3))
    print(innerRange(4))

    bounds = jnp.array([3, 4], dtype="int32")
    res = vmap(innerRange)(bounds)
    return res


if __name__ == "__main__":
    parts = jnp.array(np.random.RandomState(0).randn(40, 2))
    print(testSimpleRangeInVMap(parts))
