# source: https://github.com/google/flax/issues/1077
# category: A
# expect: ok
# via: flax-linen, jit-call, helper
# sink: range
"""The Hadamard initializer with its number of doublings computed by NumPy from the static shape,
so the Python loop runs over a concrete count even when init is jitted."""
import jax
import jax.numpy as jnp
import numpy as np
import flax.linen as nn


def hadamard(key, shape, dtype=jnp.float32):
    lg2 = int(np.log2(shape[0]))
    H = jnp.ones((1,), dtype=dtype)
    for i in range(lg2):
        H = jnp.vstack([jnp.hstack([H, H]), jnp.hstack([H, -H])])
    return 2 ** (-lg2 / 2) * H


class HadamardTransform(nn.Module):
    n_hadamard: int

    @nn.compact
    def __call__(self, X):
        kernel = self.param("kernel", hadamard, (self.n_hadamard,))
        return jnp.dot(X, kernel)


if __name__ == "__main__":
    key = jax.random.PRNGKey(42)
    X = jax.random.normal(key, (1, 8))
    model = HadamardTransform(8)
    params = jax.jit(model.init)(key, X)
    print(model.apply(params, X))
