# source: https://github.com/pmelchior/scarlet2/pull/188
# category: B
# expect: ok
# via: equinox, jit-decorator, method, pytree-class
# sink: static-unhashable
"""An observation's renderer narrows the model to the observed channels with a Python `slice`
held as a module attribute.  Once the renderer is no longer a static field, `eqx.filter_jit`
puts the slice (a non-array leaf) into the static part of the arguments, and on Python < 3.12 a
slice cannot be hashed; storing it as a small frozen dataclass keeps the static part hashable."""
import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class HashableSlice:
    start: int
    stop: int
    step: int = None

    def to_slice(self):
        return slice(self.start, self.stop, self.step)


class ChannelRenderer(eqx.Module):
    channel_selector: HashableSlice

    def __init__(self, model_channels, obs_channels):
        start = model_channels.index(obs_channels[0])
        self.channel_selector = HashableSlice(start, start + len(obs_channels))

    def __call__(self, model):
        return model[self.channel_selector.to_slice()]


class Observation(eqx.Module):
    data: jax.Array
    renderer: ChannelRenderer

    def render(self, model):
        return self.renderer(model)

    def log_likelihood(self, model):
        return -0.5 * jnp.sum((self.render(model) - self.data) ** 2)


@eqx.filter_jit
def loss(model, obs):
    return -obs.log_likelihood(model)


if __name__ == "__main__":
    model_channels = ["g", "r", "i", "z", "y"]
    obs = Observation(jnp.ones((3, 16, 16)), ChannelRenderer(model_channels, ["r", "i", "z"]))
    model = jnp.zeros((5, 16, 16))
    print(loss(model, obs))
