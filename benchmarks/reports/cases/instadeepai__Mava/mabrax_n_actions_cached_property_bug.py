# source: https://github.com/instadeepai/Mava/commit/9f2079bcb768242e0b0327933651ae7471a841ed
# category: A
# expect: raises
# via: jit-call, method, wrapper, class-attribute
# sink: python-if
"""The multi-agent Brax wrapper's `n_actions` is a cached property built from the action spec;
it was first read inside the jitted step (by `action_mask`), so the spec's bounds check ran on
traced arrays and its `if jnp.any(minimum > maximum)` needed a concrete bool."""
from functools import cached_property

import jax
import jax.numpy as jnp


class BoundedArray:
    def __init__(self, shape, dtype, minimum, maximum):
        minimum = jnp.asarray(minimum, dtype)
        maximum = jnp.asarray(maximum, dtype)
        bcast_minimum = jnp.broadcast_to(minimum, shape=shape)
        bcast_maximum = jnp.broadcast_to(maximum, shape=shape)
        if jnp.any(bcast_minimum > bcast_maximum):  # <-- bug
            raise ValueError("All values in `minimum` must be less than or equal to `maximum`.")
        self.shape, self.dtype = shape, dtype


class Box:
    def __init__(self, low, high, shape):
        self.low, self.high, self.shape, self.dtype = low, high, shape, jnp.float32


class MabraxWrapper:
    def __init__(self, num_agents, action_size):
        self.num_agents = num_agents
        self._action_space = Box(-1.0, 1.0, (num_agents, action_size))

    def action_spec(self):
        space = self._action_space
        return BoundedArray(shape=space.shape, dtype=space.dtype, minimum=space.low, maximum=space.high)

    @cached_property
    def n_actions(self):
        "Get the number of actions for each agent."
        return self.action_spec().shape[1]

    def action_mask(self, state):
        return jnp.ones((self.num_agents, self.n_actions), dtype=bool)

    def step(self, state, action):
        state = state + jnp.clip(action, -1.0, 1.0).sum()
        return state, self.action_mask(state)


if __name__ == "__main__":
    env = MabraxWrapper(num_agents=2, action_size=3)
    step = jax.jit(env.step)
    state = jnp.zeros(())
    for _ in range(2):
        state, mask = step(state, jnp.full((2, 3), 0.5))
    print(state, mask.shape)
