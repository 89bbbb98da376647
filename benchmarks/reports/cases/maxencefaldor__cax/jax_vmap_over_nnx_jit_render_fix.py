# source: https://github.com/maxencefaldor/cax/issues/17
# category: C
# expect: ok
# via: flax-nnx, vmap, method, jit-decorator
# sink: leaked-tracer
"""As the maintainer advised, the frames are rendered with `nnx.vmap` over a lambda that takes
the module as an unbatched argument (`in_axes=(None, 0)`), so NNX carries the module into the
vmap trace itself."""
import jax
import jax.numpy as jnp
from flax import nnx


class Perceive(nnx.Module):
    def __call__(self, state):
        return state


class CA(nnx.Module):
    def __init__(self, perceive):
        self.perceive = perceive
        self.birth = nnx.Variable(jnp.array(3.0))

    @nnx.jit
    def step(self, state):
        return jnp.where(self.perceive(state) > 0.5, 1.0, 0.0)

    @nnx.jit
    def render(self, state):
        rgb = jnp.repeat(state[..., None], 3, axis=-1)
        return (rgb * 255).astype(jnp.uint8)


if __name__ == "__main__":
    ca = CA(Perceive())
    states = jax.random.uniform(jax.random.key(0), (4, 8, 8))
    frames = nnx.vmap(lambda ca, state: ca.render(state), in_axes=(None, 0))(ca, states)
    print(frames.shape, frames.sum())
