# source: https://github.com/jax-ml/jax/issues/553
# category: A
# expect: ok
# via: jit-call
# sink: numpy-call
"""The index range is built with `lax.iota` (a JAX array), so indexing it with the traced index
array stays inside JAX under jit."""
import numpy as onp
import jax.numpy as np
from jax import jit, lax


def fun(x):
    r = lax.iota(np.int32, x.shape[0])[x]
    return r


if __name__ == "__main__":
    print(fun(onp.array([2, 0, 1], dtype=onp.int32)))
    print(jit(fun)(np.array([0, 1, 2], dtype=np.int32)))
