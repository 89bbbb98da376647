# source: https://github.com/pyro-ppl/numpyro/issues/494
# category: B
# expect: ok
# via: pmap, static-argnums, list-of-arrays
# sink: static-array
"""To run one MCMC per data shard, the user pmapped a function that picks shard `i` out of Python
lists and marked `i` as a static broadcasted argument; the shard indices were handed over as a
`jnp.arange`, an array that pmap cannot hash as a static argument.  Stacking the shards into
arrays lets the mapped index stay a traced value."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import random

n_dev = len(jax.devices())
rng = np.random.default_rng(0)
shards_x = jnp.stack([rng.normal(size=(20, 3)).astype(np.float32) for _ in range(n_dev)])
shards_y = jnp.stack([rng.normal(size=(20,)).astype(np.float32) for _ in range(n_dev)])


def get_samples(i):
    X = shards_x[i]
    y = shards_y[i]
    return X, y, random.PRNGKey(i)


if __name__ == "__main__":
    X, y, keys = jax.pmap(get_samples)(jnp.arange(n_dev))
    print(X.shape, y.shape, keys.shape)
