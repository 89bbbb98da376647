# source: https://github.com/jax-ml/jax/issues/12083
# category: A
# expect: raises
# via: jit-call
# sink: numpy-call
"""jnp.ndim accepts a Python list of arrays outside jit, but under jit the list holds a tracer and
ndim falls back to NumPy, which tries to convert the tracer to a NumPy array."""
import jax
from jax import numpy as jnp

func = lambda x: x + jnp.ndim([jnp.ones(1)])  # <-- bug

if __name__ == "__main__":
    print(func(0.0))
    print(jax.jit(func)(0.0))
