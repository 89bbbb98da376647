# source: https://github.com/jax-ml/jax/issues/28225
# category: C
# expect: stale
# via: jit-call, vmap, helper
# sink: closure-global
"""mock_fn_vec vmaps a global mock_fn; after mock_fn is rebound to a new lambda, jitting
mock_fn_vec again hits the cache entry traced with the old mock_fn and returns stale results."""
import jax
import jax.numpy as jnp

vec_input = jnp.array([2, 3])


def mock_fn_vec(x):
    return jax.vmap(mock_fn)(x)  # <-- bug


mock_fn = lambda x: x
mock_fn_vec_jit = jax.jit(mock_fn_vec)

print(mock_fn_vec_jit(vec_input))
print(mock_fn_vec(vec_input))

mock_fn = lambda x: -x
mock_fn_vec_jit = jax.jit(mock_fn_vec)

print(mock_fn_vec_jit(vec_input))
print(mock_fn_vec(vec_input))
