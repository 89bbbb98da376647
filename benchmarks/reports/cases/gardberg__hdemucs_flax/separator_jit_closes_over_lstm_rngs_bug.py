# source: https://github.com/gardberg/hdemucs_flax/commit/0dd4893ebab5b5530a504ee3bac0d23d21808eee
# category: C
# expect: raises
# via: flax-nnx, method, jit-call
# sink: attribute-write
"""The `Separator` compiled its `separate` method with `jax.jit`, which reaches the NNX model
through `self.model`; the model's bidirectional LSTM draws its initial carry from the module's
`Rngs` and so bumps their counter inside the trace, on a module that never entered it, and NNX
refuses the write (TraceContextError)."""
from functools import partial

import jax
import jax.numpy as jnp
import flax.nnx as nnx


class BidirectionalLSTM(nnx.Module):
    def __init__(self, num_layers: int, hidden_size: int, input_size: int, *, rngs: nnx.Rngs):
        layers = []
        for i in range(num_layers):
            layer_input_size = input_size if i == 0 else 2 * hidden_size
            forward_lstm = nnx.RNN(nnx.LSTMCell(in_features=layer_input_size, hidden_features=hidden_size, rngs=rngs))
            backward_lstm = nnx.RNN(nnx.LSTMCell(in_features=layer_input_size, hidden_features=hidden_size, rngs=rngs))
            layers.append(nnx.Bidirectional(forward_rnn=forward_lstm, backward_rnn=backward_lstm,
                                            time_major=False))
        self.layers = nnx.List(layers)

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)  # <-- bug
        return x


class HDemucs(nnx.Module):
    def __init__(self, channels: int = 2, hidden: int = 8, *, rngs: nnx.Rngs):
        self.proj = nnx.Linear(channels, hidden, rngs=rngs)
        self.lstm = BidirectionalLSTM(num_layers=1, hidden_size=hidden, input_size=hidden, rngs=rngs)
        self.out = nnx.Linear(2 * hidden, 4 * channels, rngs=rngs)

    def __call__(self, x):
        h = self.proj(jnp.swapaxes(x, 1, 2))
        return jnp.swapaxes(self.out(self.lstm(h)), 1, 2)


class Separator:
    def __init__(self, model: HDemucs, chunk_size_samples: int = 16):
        self.model = model
        self.chunk_size_samples = chunk_size_samples
        self._compiled_separate = jax.jit(self.separate)
        # warmup
        self._compiled_separate(jnp.zeros((2, self.chunk_size_samples)))

    def _reshape_input(self, waveform):
        return waveform[None, ...]

    def separate(self, waveform):
        waveform_n = self._reshape_input(waveform)
        output = self.model(waveform_n)
        return output.reshape(4, 2, -1)


if __name__ == "__main__":
    separator = Separator(HDemucs(rngs=nnx.Rngs(0)))
    out = separator._compiled_separate(jnp.ones((2, 16)))
    print(out.shape, float(out.sum()))
