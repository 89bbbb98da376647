# source: https://github.com/jax-ml/jax/issues/3133
# category: A
# expect: ok
# via: jit-call
# sink: numpy-call
"""The table is put on the device with `jax.device_put(np.zeros((3, 3)))` before it is indexed, so
indexing it with the traced argument under jit stays inside JAX."""
import jax
import jax.numpy as jnp
import numpy as np

f = lambda i: jnp.zeros((3, 3))[i, :]
g = lambda i: jax.device_put(np.zeros((3, 3)))[i, :]

if __name__ == "__main__":
    a = np.array([1, 2])
    print(f(a))
    print(jax.jit(f)(a))
    print(g(a))
    print(jax.jit(g)(a))
