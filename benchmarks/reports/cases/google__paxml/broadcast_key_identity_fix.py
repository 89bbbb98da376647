# source: https://github.com/google/paxml/commit/e4fad96057a62c605f8cd36263080dc40a851988
# category: R
# expect: ok
# via: method, factory-closure, jit-call, host-loop
# sink: fresh-callable
"""Pax's PjitPartitioner broadcast each step's PRNG key with a replicated identity pjit, but the
identity function was defined inside `_broadcast_key`, so every call of `preprocess_prng_key`
jitted a brand-new function and compiled it again.  The commit moves `_identity` to module
scope so it is compiled once."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec


def _identity(x):
    return x


class PjitPartitioner:
    def __init__(self):
        self._global_mesh = Mesh(np.array(jax.devices()[:1]), ("replica",))
        self._broadcast_key_fn = None

    def preprocess_prng_key(self, prng_key):
        if not self._broadcast_key_fn:
            def _broadcast_key(k):
                rep_sharding = NamedSharding(self._global_mesh, PartitionSpec())
                return jax.jit(_identity, in_shardings=rep_sharding, out_shardings=rep_sharding)(k)

            self._broadcast_key_fn = _broadcast_key
        return self._broadcast_key_fn(prng_key)


if __name__ == "__main__":
    partitioner = PjitPartitioner()
    key = jax.random.PRNGKey(1234)
    total = 0.0
    for step in range(3):
        key, step_key = jax.random.split(key)
        step_key = partitioner.preprocess_prng_key(step_key)
        total += float(jax.random.uniform(step_key))
    print(total)
