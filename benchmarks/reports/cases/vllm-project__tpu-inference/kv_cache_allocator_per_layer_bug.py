# source: https://github.com/vllm-project/tpu-inference/pull/3180
# category: R
# expect: recompiles
# via: jit-call, factory-closure, helper, host-loop
# sink: fresh-callable
"""`create_kv_caches` defines a local `_allocate` that returns zeros of the cache shape and jits
it with the cache sharding on every call; the KV cache manager calls it once per cache tensor,
so the same zero allocator is compiled again for every layer of the model.  The fix builds the
jitted allocator once per (shape, dtype, sharding) behind `functools.cache`.  (tpu-inference is
not installed: the manager and the cache shape are reduced.)"""
from typing import List

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec


def create_kv_caches(num_blocks: int, block_size: int, num_kv_heads: int, head_size: int,
                     mesh: Mesh, layer_names: List[str],
                     cache_dtype=jnp.float32) -> List[jax.Array]:
    cache_shape = (num_blocks, block_size, num_kv_heads * 2, head_size)
    sharding = NamedSharding(mesh, PartitionSpec("data", None, "model"))

    def _allocate() -> jax.Array:
        return jnp.zeros(shape=cache_shape, dtype=cache_dtype)

    sharded_allocate = jax.jit(_allocate, out_shardings=sharding)
    kv_caches = []
    for _ in layer_names:
        kv_caches.append(sharded_allocate())  # <-- bug
    return kv_caches


class KVCacheManager:
    def __init__(self, mesh, num_layers):
        self.mesh = mesh
        self.num_layers = num_layers

    def initialize_kv_cache(self, num_blocks):
        kv_caches = []
        for i in range(self.num_layers):
            kv_cache = create_kv_caches(
                num_blocks=num_blocks, block_size=16, num_kv_heads=2, head_size=8,
                mesh=self.mesh, layer_names=[f"kv_cache_tensor.{i}"],
            )[0]
            kv_caches.append(kv_cache)
        return kv_caches


if __name__ == "__main__":
    mesh = Mesh(np.array(jax.devices()[:1]).reshape(1, 1), ("data", "model"))
    caches = KVCacheManager(mesh, num_layers=4).initialize_kv_cache(num_blocks=8)
    print(len(caches), caches[0].shape, float(sum(c.sum() for c in caches)))
