# source: https://github.com/google/flax/commit/ca72d0a910d2f6cf002d0aa7a8a801fbb3d7d5a3
# category: A
# expect: ok
# via: flax-linen, method, jit-call
# sink: shape-from-value
"""The README AutoEncoder after the commit: the input dimension is np.prod of the static input
shape, a Python number, so model.init and model.apply can be jitted."""
from typing import Sequence

import jax
import jax.numpy as jnp
import numpy as np
import flax.linen as nn


class MLP(nn.Module):
    features: Sequence[int]

    @nn.compact
    def __call__(self, x):
        for feat in self.features[:-1]:
            x = nn.relu(nn.Dense(feat)(x))
        return nn.Dense(self.features[-1])(x)


class AutoEncoder(nn.Module):
    encoder_widths: Sequence[int]
    decoder_widths: Sequence[int]
    input_shape: Sequence[int]

    def setup(self):
        input_dim = int(np.prod(self.input_shape))
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
