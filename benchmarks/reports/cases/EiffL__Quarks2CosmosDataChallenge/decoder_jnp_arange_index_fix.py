# source: https://github.com/EiffL/Quarks2CosmosDataChallenge/pull/6
# category: A
# expect: ok
# via: haiku, method, jit-call
# sink: list-index
"""The VAE Decoder (a Haiku module) loops over its block groups with a NumPy range, so the index
used on the Python tuples of per-group settings is a concrete integer under jit."""
import haiku as hk
import jax
import jax.numpy as jnp
import numpy as onp


class Decoder(hk.Module):
    def __init__(self, channels_per_group=(4, 8, 8, 8, 4), blocks_per_group=(1, 1, 1, 1, 1), name=None):
        super().__init__(name=name)
        self.channels_per_group = channels_per_group
        self.blocks_per_group = blocks_per_group

    def __call__(self, inputs, is_training=False):
        net = hk.Linear(3 * 3 * 4)(inputs)
        net = net.reshape([-1, 3, 3, 4])
        strides = (1, 2, 2, 2, 2)
        for i in onp.arange(5)[::-1]:
            for _ in range(self.blocks_per_group[i]):
                net = hk.Conv2DTranspose(output_channels=self.channels_per_group[i],
                                         kernel_shape=3, stride=strides[i])(net)
                net = jax.nn.elu(net)
        return hk.Conv2D(output_channels=1, kernel_shape=3)(net)[..., 0]


def decoder_fn(z):
    return Decoder()(z)


if __name__ == "__main__":
    model = hk.without_apply_rng(hk.transform(decoder_fn))
    z = jnp.ones((2, 8))
    params = model.init(jax.random.PRNGKey(0), z)
    apply = jax.jit(model.apply)
    print(apply(params, z).shape)
