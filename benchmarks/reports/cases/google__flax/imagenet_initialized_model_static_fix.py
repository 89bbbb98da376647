# source: https://github.com/google/flax/commit/bb5927c8dc6e96349d57020b25691b787a98772d
# category: B
# expect: ok
# via: flax-linen, partial-jit, static-argnums, factory-closure
# sink: static-unhashable
"""Flax's ImageNet example had jitted `initialized(key, image_size, model)` with the ResNet
module as a static argument, though `ResNet50` sets `stage_sizes` to a list and the module cannot be
hashed.  The commit dropped the static arguments: `initialized` is a plain function that jits a
closure over `model.init`.  (The ResNet is reduced to a stack of dense layers.)"""
import functools
from typing import Any, Sequence

import jax
import jax.numpy as jnp
import flax.linen as nn


class ResNet(nn.Module):
    stage_sizes: Sequence[int]
    num_classes: int
    num_filters: int = 8
    dtype: Any = jnp.float32

    @nn.compact
    def __call__(self, x):
        for i, block_size in enumerate(self.stage_sizes):
            x = nn.relu(nn.Dense(self.num_filters * block_size, dtype=self.dtype)(x))
        x = jnp.mean(x, axis=(1, 2))
        return nn.Dense(self.num_classes, dtype=self.dtype)(x)


ResNet50 = functools.partial(ResNet, stage_sizes=[3, 4, 6, 3])


def create_model(*, half_precision, **kwargs):
    model_dtype = jnp.bfloat16 if half_precision else jnp.float32
    return ResNet50(num_classes=10, dtype=model_dtype, **kwargs)


def initialized(key, image_size, model):
    input_shape = (1, image_size, image_size, 3)

    @jax.jit
    def init(*args):
        return model.init(*args)

    variables = init({"params": key}, jnp.ones(input_shape, model.dtype))
    return variables["params"]


if __name__ == "__main__":
    model = create_model(half_precision=False)
    params = initialized(jax.random.PRNGKey(0), 8, model)
    print(jax.tree_util.tree_map(jnp.shape, params)["Dense_0"])
