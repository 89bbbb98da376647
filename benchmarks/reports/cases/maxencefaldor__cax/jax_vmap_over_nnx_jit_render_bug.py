# source: https://github.com/maxencefaldor/cax/issues/17
# category: C
# expect: raises
# via: flax-nnx, vmap, method, jit-decorator
# sink: leaked-tracer
"""The getting-started notebook renders every frame of a rollout with
`jax.vmap(ca.render)(states)`, where `render` is an `nnx.jit` method of the cellular-automaton
module; the module enters the vmap trace only through the bound method, so nnx.jit inside the vmap
handles an object of the outer trace level and Flax raises TraceContextError."""
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
    frames = jax.vmap(ca.render)(states)  # <-- bug
    print(frames.shape, frames.sum())
