# source: https://github.com/instadeepai/Mava/pull/1087
# category: R
# expect: ok
# via: jit-call, method, wrapper, dataclass, host-loop
# sink: weak-type
"""The episode-metrics wrapper resets its running counters to typed arrays
(`jnp.array(0.0, dtype=float)`, `jnp.array(0, dtype=int)`), the types the step returns, so the
jitted step is compiled once."""
from typing import Any, Dict

import jax
import jax.numpy as jnp
from flax.struct import dataclass


@dataclass
class TimeStep:
    reward: jnp.ndarray
    last_flag: jnp.ndarray
    extras: Dict[str, Any]

    def last(self):
        return self.last_flag


@dataclass
class RecordEpisodeMetricsState:
    env_state: jnp.ndarray
    key: jnp.ndarray
    running_count_episode_return: Any
    running_count_episode_length: Any
    episode_return: Any
    episode_length: Any


class CountingEnv:
    def reset(self, key):
        return jnp.zeros((), jnp.int32), TimeStep(jnp.zeros(2), jnp.array(False), {})

    def step(self, state, action):
        state = state + 1
        return state, TimeStep(jnp.full(2, action * 1.0), state % 3 == 0, {})


class RecordEpisodeMetrics:
    def __init__(self, env):
        self._env = env

    def reset(self, key):
        key, reset_key = jax.random.split(key)
        state, timestep = self._env.reset(reset_key)
        state = RecordEpisodeMetricsState(
            state, key, jnp.array(0.0, dtype=float), jnp.array(0, dtype=int),
            jnp.array(0.0, dtype=float), jnp.array(0, dtype=int))
        timestep.extras["episode_metrics"] = {
            "episode_return": jnp.array(0.0, dtype=float), "episode_length": jnp.array(0, dtype=int)}
        return state, timestep

    def step(self, state, action):
        env_state, timestep = self._env.step(state.env_state, action)
        done = timestep.last()
        not_done = 1 - done
        new_episode_return = state.running_count_episode_return + jnp.mean(timestep.reward)
        new_episode_length = state.running_count_episode_length + 1
        episode_return_info = state.episode_return * not_done + new_episode_return * done
        episode_length_info = state.episode_length * not_done + new_episode_length * done
        timestep.extras["episode_metrics"] = {
            "episode_return": episode_return_info, "episode_length": episode_length_info}
        state = RecordEpisodeMetricsState(
            env_state, state.key, new_episode_return * not_done, new_episode_length * not_done,
            episode_return_info, episode_length_info)
        return state, timestep


if __name__ == "__main__":
    env = RecordEpisodeMetrics(CountingEnv())
    state, timestep = env.reset(jax.random.PRNGKey(0))
    step = jax.jit(env.step)
    for t in range(6):
        state, timestep = step(state, jnp.asarray(t % 2))
    print(state.episode_return, state.episode_length)
