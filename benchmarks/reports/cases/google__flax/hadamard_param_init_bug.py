# source: https://github.com/google/flax/issues/1077
# category: A
# expect: raises
# via: flax-linen, jit-call, helper
# sink: range
"""A Hadamard-matrix initializer computes its number of doublings with jnp.log2 of the shape and
loops over jnp.arange of it; when the model's init is jitted the count is a tracer and the
Python loop over it fails with a ConcretizationTypeError."""
import jax
import jax.numpy as jnp
import flax.linen as nn


def hadamard(key, shape, dtype=jnp.float32):
    lg2 = jnp.log2(shape[0])
    H = jnp.ones((1,), dtype=dtype)
    for i in jnp.arange(lg2):  # <-- bug
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
