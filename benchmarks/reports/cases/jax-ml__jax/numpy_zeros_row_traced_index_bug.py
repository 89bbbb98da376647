# source: https://github.com/jax-ml/jax/issues/3133
# category: A
# expect: raises
# via: jit-call
# sink: numpy-call
"""`g = lambda i: np.zeros((3, 3))[i, :]` indexes a raw NumPy array with the argument; eagerly and
with jnp it works, but under jit NumPy's `__getitem__` receives a tracer and tries to convert it."""
import jax
import jax.numpy as jnp
import numpy as np

f = lambda i: jnp.zeros((3, 3))[i, :]
g = lambda i: np.zeros((3, 3))[i, :]  # <-- bug

if __name__ == "__main__":
    a = np.array([1, 2])
    print(f(a))
    print(jax.jit(f)(a))
    print(g(a))
    print(jax.jit(g)(a))
