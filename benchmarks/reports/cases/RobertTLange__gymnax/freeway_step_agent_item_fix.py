# source: https://github.com/RobertTLange/gymnax/pull/74
# category: A
# expect: ok
# via: jit-call, method, helper, dataclass
# sink: item
"""The MinAtar Freeway environment's agent step returns the win flag without `.item()`; stepping
the environment under jax.jit works once the flag is returned as the boolean array itself."""
from typing import Tuple

import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class EnvState:
    pos: jnp.ndarray
    move_timer: jnp.ndarray
    time: int


@struct.dataclass
class EnvParams:
    player_speed: int = 3


def step_agent(action: jnp.ndarray, state: EnvState, params: EnvParams) -> Tuple[EnvState, jnp.ndarray, bool]:
    """Perform 1st part of step transition for agent."""
    cond_up = jnp.logical_and(action == 2, state.move_timer == 0)
    cond_down = jnp.logical_and(action == 4, state.move_timer == 0)
    any_cond = jnp.logical_or(cond_up, cond_down)
    pos = (1 - any_cond) * state.pos + cond_up * jnp.maximum(0, state.pos - 1) + cond_down * jnp.minimum(9, state.pos + 1)
    move_timer = jax.lax.select(any_cond, params.player_speed, state.move_timer)
    win_cond = pos == 0
    reward = win_cond * 1.0
    pos = jax.lax.select(win_cond, 9, pos)
    return state.replace(pos=pos, move_timer=move_timer), reward, win_cond


class Freeway:
    def __init__(self):
        self.action_set = jnp.array([0, 2, 4])

    def step_env(self, key, state: EnvState, action, params: EnvParams):
        a = self.action_set[action]
        state, reward, win_cond = step_agent(a, state, params)
        cars_moved = jax.random.bernoulli(key)
        state = state.replace(time=state.time + 1)
        return state, reward.astype(jnp.float32), jnp.logical_or(win_cond, cars_moved)


if __name__ == "__main__":
    env = Freeway()
    params = EnvParams()
    state = EnvState(pos=jnp.asarray(1), move_timer=jnp.asarray(0), time=0)
    step = jax.jit(env.step_env)
    state, reward, done = step(jax.random.PRNGKey(0), state, 1, params)
    print(state.pos, reward, done)
