# source: https://github.com/vllm-project/tpu-inference/pull/162
# category: R
# expect: ok
# via: method, jit-call, list-of-arrays, host-loop
# sink: changing-shape
"""The TPU model runner scatters a prefilled request's KV cache slices into the cache with a
jitted insert, passing the request's block numbers and slices as they are; each request needs a
different number of blocks, so the insert compiles again for almost every request.  The fix pads
the block numbers (with an out-of-range block that the scatter drops) and the slices to a bucket
size.  (tpu-inference is not installed: the runner is reduced.)"""
import bisect

import jax
import jax.numpy as jnp


class TPUModelRunner:
    def __init__(self, num_layers=2, num_blocks=32, block_size=4, head_dim=8, max_num_blocks_per_req=16):
        self.num_blocks = num_blocks
        self.max_num_blocks_per_req = max_num_blocks_per_req
        self.kv_caches = [jnp.zeros((num_blocks, block_size, head_dim)) for _ in range(num_layers)]
        self._jitted_insert_kv_cache = jax.jit(self._insert_kv_cache, donate_argnums=(0,))

    @staticmethod
    def _insert_kv_cache(kv_caches, kv_cache_slices, block_numbers):
        new_kv_caches = []
        for i, layer_kv_cache_slices in enumerate(kv_cache_slices):
            new_kv_caches.append(kv_caches[i].at[block_numbers].set(layer_kv_cache_slices))
        return new_kv_caches

    def insert_request_with_kv_cache(self, kv_cache_slices, block_ids):
        block_numbers = list(block_ids[0])
        num_blocks = len(block_numbers)
        block_buckets = [1, 2, 4, 8, 16, self.max_num_blocks_per_req]
        padded_num_blocks = block_buckets[bisect.bisect_left(block_buckets, num_blocks)]
        padding_size = padded_num_blocks - num_blocks
        block_numbers.extend([self.num_blocks + 1] * padding_size)
        padded_block_numbers = jnp.array(block_numbers, dtype=jnp.int32)
        padded_kv_cache_slices = []
        for layer_slice in kv_cache_slices:
            pad_width = [(0, padding_size)] + [(0, 0)] * (layer_slice.ndim - 1)
            padded_kv_cache_slices.append(jnp.pad(layer_slice, pad_width))
        self.kv_caches = self._jitted_insert_kv_cache(
            self.kv_caches, padded_kv_cache_slices, padded_block_numbers)


if __name__ == "__main__":
    runner = TPUModelRunner()
    key = jax.random.PRNGKey(0)
    next_block = 0
    for num_request_blocks in (5, 7, 6, 8):
        key, sub = jax.random.split(key)
        block_ids = ([next_block + j for j in range(num_request_blocks)],)
        next_block += num_request_blocks
        slices = [jax.random.normal(sub, (num_request_blocks, 4, 8)) for _ in range(2)]
        runner.insert_request_with_kv_cache(slices, block_ids)
        print(num_request_blocks, float(runner.kv_caches[0].sum()))
