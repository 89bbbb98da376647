# source: https://github.com/jax-ml/jax/issues/553
# category: A
# expect: raises
# via: jit-call
# sink: numpy-call
"""`onp.arange(x.shape[0])[x]` in a jitted function indexes a plain NumPy array with a traced
index array; NumPy tries to convert the tracer to an ndarray and fails."""
import numpy as onp
import jax.numpy as np
from jax import jit


def fun(x):
    r = onp.arange(x.shape[0])[x]  # <-- bug
    return r


if __name__ == "__main__":
    print(fun(onp.array([2, 0, 1], dtype=onp.int32)))
    print(jit(fun)(np.array([0, 1, 2], dtype=np.int32)))
