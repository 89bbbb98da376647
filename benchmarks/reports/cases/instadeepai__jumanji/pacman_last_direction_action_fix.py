# source: https://github.com/instadeepai/jumanji/commit/3114d682d4029d31ef0a8393934e0935ae7288f5
# category: R
# expect: ok
# via: jit-call, method, dataclass, host-loop
# sink: weak-type
"""Jumanji's PacMan `step` stored the incoming action in the state as `state.last_direction =
action`.  The step test jits `step` and calls it twice with `action = 3`, a Python int, so the
first step returns a state whose `last_direction` is a weakly typed int where `reset` had built a
strong int32, and the second step traces `step` again; the commit stores
`jnp.array(action, jnp.int32)`.  (jumanji and chex are not installed: PacMan and its mutable chex
dataclass State are reduced here.)"""
import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class State:
    key: jax.Array
    player_locations: jax.Array
    pellet_locations: jax.Array
    last_direction: jax.Array
    step_count: jax.Array


MOVES = jnp.array([[-1, 0], [0, 1], [1, 0], [0, -1], [0, 0]], jnp.int32)


class PacMan:
    def __init__(self, x_size=31, y_size=28):
        self.x_size = x_size
        self.y_size = y_size

    def reset(self, key):
        key, sub = jax.random.split(key)
        pellets = jax.random.randint(sub, (20, 2), 0, self.x_size)
        return State(
            key=key,
            player_locations=jnp.array([23, 13], jnp.int32),
            pellet_locations=pellets,
            last_direction=jnp.array(0, jnp.int32),
            step_count=jnp.array(0, jnp.int32),
        )

    def step(self, state, action):
        next_pos = state.player_locations + MOVES[action]
        next_pos = jnp.clip(next_pos, 0, jnp.array([self.x_size - 1, self.y_size - 1]))
        eaten = jnp.all(state.pellet_locations == next_pos, axis=-1)
        state.pellet_locations = jnp.where(eaten[:, None], -1, state.pellet_locations)
        state.player_locations = next_pos
        state.last_direction = jnp.array(action, jnp.int32)
        state.step_count = state.step_count + 1
        reward = jnp.sum(eaten).astype(jnp.float32)
        return state, reward


def test_pac_man__step_jit(pac_man):
    state = pac_man.reset(jax.random.PRNGKey(0))
    action = 3
    step_fn = jax.jit(pac_man.step)
    new_state, reward = step_fn(state, action)
    print(new_state.player_locations, reward)
    state = new_state
    action = 3
    new_state, reward = step_fn(state, action)
    print(new_state.player_locations, reward)


if __name__ == "__main__":
    test_pac_man__step_jit(PacMan())
