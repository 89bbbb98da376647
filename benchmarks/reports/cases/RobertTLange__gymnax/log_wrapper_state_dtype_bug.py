# source: https://github.com/RobertTLange/gymnax/commit/69f1e9ee1808875cef40479936e866ffcd2f92c3
# category: R
# expect: recompiles
# via: partial-jit, method, wrapper, dataclass, host-loop
# sink: dtype-change
"""The LogWrapper's jitted reset filled the episode counters with Python zeros, which leave the
reset as int32 arrays; the jitted step turns the returns into float32, so the state's dtypes
change after the first step and the step is compiled again."""
from functools import partial

import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class EnvState:
    ball_x: jnp.ndarray
    time: jnp.ndarray


@struct.dataclass
class LogEnvState:
    env_state: EnvState
    episode_returns: float
    episode_lengths: int
    returned_episode_returns: float
    returned_episode_lengths: int


class Catch:
    def reset(self, key, params=None):
        state = EnvState(jax.random.randint(key, (), 0, 5, dtype=jnp.int32), jnp.int32(0))
        return jnp.zeros(5).at[state.ball_x].set(1.0), state

    def step(self, key, state, action, params=None):
        state = EnvState(state.ball_x, state.time + 1)
        reward = jnp.where(state.ball_x == action, 1.0, -1.0)
        done = state.time >= 3
        return jnp.zeros(5).at[state.ball_x].set(1.0), state, reward, done, {}


class LogWrapper:
    def __init__(self, env):
        self._env = env

    @partial(jax.jit, static_argnames=("self",))
    def reset(self, key, params=None):
        obs, env_state = self._env.reset(key, params)
        state = LogEnvState(env_state, 0, 0, 0, 0)
        return obs, state

    @partial(jax.jit, static_argnames=("self",))
    def step(self, key, state, action, params=None):
        obs, env_state, reward, done, info = self._env.step(key, state.env_state, action, params)
        new_episode_return = state.episode_returns + reward
        new_episode_length = state.episode_lengths + 1
        state = LogEnvState(
            env_state=env_state,
            episode_returns=new_episode_return * (1 - done),
            episode_lengths=new_episode_length * (1 - done),
            returned_episode_returns=state.returned_episode_returns * (1 - done) + new_episode_return * done,
            returned_episode_lengths=state.returned_episode_lengths * (1 - done) + new_episode_length * done,
        )
        info["returned_episode_returns"] = state.returned_episode_returns
        return obs, state, reward, done, info


if __name__ == "__main__":
    wrapper = LogWrapper(Catch())
    key = jax.random.PRNGKey(0)
    obs, state = wrapper.reset(key)
    for t in range(5):
        obs, state, reward, done, info = wrapper.step(key, state, t % 5)  # <-- bug
    print(state.returned_episode_returns, state.returned_episode_lengths)
