# source: https://github.com/google/flax/commit/ca72d0a910d2f6cf002d0aa7a8a801fbb3d7d5a3
# category: A
# expect: raises
# via: flax-linen, method, jit-call
# sink: shape-from-value
"""Flax's README AutoEncoder computed its input dimension in setup with jnp.prod of the input
shape; under jit that product is a tracer, and the decoder's last Dense gets a traced number of
features, so jitting model.apply fails.  The commit computes it with np.prod."""
from typing import Sequence

import jax
import jax.numpy as jnp
import flax.linen as nn


class MLP(nn.Module):
    features: Sequence[int]

    @nn.compact
    def __call__(self, x):
        for feat in self.features[:-1]:
            x = nn.relu(nn.Dense(feat)(x))
        return nn.Dense(self.features[-1])(x)  # <-- bug


class AutoEncoder(nn.Module):
    encoder_widths: Sequence[int]
    decoder_widths: Sequence[int]
    input_shape: Sequence[int]

    def setup(self):
        input_dim = jnp.prod(jnp.asarray(self.input_shape))
        self.encoder = MLP(self.encoder_widths)
        self.decoder = MLP(self.decoder_widths + (input_dim,))

    def __call__(self, x):
        return self.decode(self.encode(x))

    def encode(self, x):
        assert x.shape[1:] == self.input_shape
        return self.encoder(jnp.reshape(x, (x.shape[0], -1)))

    def decode(self, z):
        z = self.decoder(z)
        x = nn.sigmoid(z)
        return jnp.reshape(x, (x.shape[0],) + self.input_shape)


if __name__ == "__main__":
    model = AutoEncoder(encoder_widths=(8, 4), decoder_widths=(4, 8), input_shape=(3, 4))
    batch = jnp.ones((2, 3, 4))
    variables = jax.jit(model.init)(jax.random.PRNGKey(0), batch)
    output = jax.jit(model.apply)(variables, batch)
    print(output.shape)
