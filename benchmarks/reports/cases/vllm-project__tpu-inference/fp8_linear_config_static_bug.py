# source: https://github.com/vllm-project/tpu-inference/pull/1946
# category: R
# expect: recompiles
# via: jit-decorator, static-argnums, method, host-loop
# sink: static-metadata
"""`process_blockwise_fp8_linear_weights` is jitted with the layer's `QuantLinearConfig` as a
static argument; every linear layer owns its own config object, which hashes by identity, so
re-quantizing the weights of a model compiles the function again for each layer even though
all configs hold the same values.  The fix passes the config's fields (block size, a tuple of
output sizes, dtype, ...) as the static arguments instead.  (tpu-inference is not installed:
the config, the layer and the (de)quantization helpers are reduced.)"""
import functools
import math

import jax
import jax.numpy as jnp


class QuantLinearConfig:
    def __init__(self, *, output_sizes):
        self.output_sizes = output_sizes
        self.fuse_matmuls = True
        self.n_shards = len(output_sizes)
        self.requant_block_size = 4
        self.requant_weight_dtype = jnp.int8


def quantize_tensor(dtype, x, block_size):
    blocks = x.reshape(x.shape[0], -1, block_size)
    scale = jnp.max(jnp.abs(blocks), axis=-1, keepdims=True) / 127.0 + 1e-12
    return (blocks / scale).round().astype(dtype).reshape(x.shape), scale[..., 0]


@functools.partial(jax.jit, static_argnames=("linear_config", "weight_block_size"))
def process_blockwise_fp8_linear_weights(weight, weight_scale, *, weight_block_size, linear_config):
    weights, weight_scales, start = [], [], 0
    block = weight_block_size[0]
    for output_size in linear_config.output_sizes:
        end = start + output_size
        w = weight[start:end]
        s = weight_scale[start // block:math.ceil(end / block)]
        dequantized = w * jnp.repeat(jnp.repeat(s, block, axis=0)[: end - start], block, axis=1)
        q, qs = quantize_tensor(linear_config.requant_weight_dtype, dequantized, linear_config.requant_block_size)
        weights.append(q)
        weight_scales.append(qs)
        start = end
    return jnp.concatenate(weights, axis=0), jnp.concatenate(weight_scales, axis=0)


class Fp8BlockwiseLinearMethod:
    def __init__(self, output_sizes):
        self.linear_config = QuantLinearConfig(output_sizes=output_sizes)

    def process_weights_after_loading(self, weight, weight_scale_inv):
        return process_blockwise_fp8_linear_weights(  # <-- bug
            weight, weight_scale_inv, weight_block_size=(4, 4),
            linear_config=self.linear_config)


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    for layer_idx in range(3):
        key, k1, k2 = jax.random.split(key, 3)
        weight = jax.random.normal(k1, (16, 8))
        scale = jax.random.uniform(k2, (4, 2)) + 0.5
        method = Fp8BlockwiseLinearMethod(output_sizes=[8, 8])
        q, qs = method.process_weights_after_loading(weight, scale)
        print(layer_idx, q.dtype, q.shape, float(qs.sum()))
