# source: https://github.com/EdanToledo/Stoix/pull/100
# category: R
# expect: ok
# via: jit-call, method, wrapper, lax-scan, dataclass, host-loop
# sink: weak-type
"""Stoix's GymnaxWrapper built the step's discount as `jnp.array(1.0 - done)` and passed the
gymnax reward through, while `restart` filled the first timestep with float32 arrays.  The
learner scans the environment with the timestep in its carry, so the scan hands back weakly typed
leaves and the second learner update is compiled again.  (gymnax and jumanji are not installed:
a small environment and the jumanji types are reduced here; one device, so the learner is
jitted rather than pmapped.)"""
from typing import NamedTuple

import jax
import jax.numpy as jnp
from flax.struct import dataclass

class Observation(NamedTuple):
    agent_view: jax.Array
    action_mask: jax.Array
    step_count: jax.Array

@dataclass
class TimeStep:
    step_type: jax.Array
    reward: jax.Array
    discount: jax.Array
    observation: Observation

def restart(observation):
    return TimeStep(step_type=jnp.int8(0), reward=jnp.zeros((), float), discount=jnp.ones((), float),
                    observation=observation)

@dataclass
class GymnaxEnvState:
    key: jax.Array
    gymnax_env_state: jax.Array
    step_count: jax.Array

class PointEnv:  # stands in for a gymnax environment
    def reset(self, key, params):
        x = jax.random.uniform(key, (2,))
        return x, x

    def step(self, key, state, action, params):
        x = state + 0.1 * action
        done = jnp.sum(x) > 3.0
        return x, x, 1.0 - done, done, {}

class GymnaxWrapper:
    def __init__(self, env, env_params=None):
        self._env = env
        self._env_params = env_params
        self._legal_action_mask = jnp.ones((2,), dtype=jnp.float32)

    def reset(self, key):
        key, reset_key = jax.random.split(key)
        obs, gymnax_state = self._env.reset(reset_key, self._env_params)
        obs = Observation(obs, self._legal_action_mask, jnp.array(0, dtype=jnp.int32))
        state = GymnaxEnvState(key=key, gymnax_env_state=gymnax_state, step_count=jnp.array(0, dtype=jnp.int32))
        return state, restart(obs)

    def step(self, state, action):
        key, key_step = jax.random.split(state.key)
        obs, gymnax_state, reward, done, _ = self._env.step(key_step, state.gymnax_env_state, action, self._env_params)
        state = GymnaxEnvState(key=key, gymnax_env_state=gymnax_state, step_count=state.step_count + 1)
        timestep = TimeStep(
            observation=Observation(obs, self._legal_action_mask, state.step_count),
            reward=reward.astype(float),
            discount=jnp.array(1.0 - done, dtype=float),
            step_type=jax.lax.select(done, jnp.int8(2), jnp.int8(1)),
        )
        return state, timestep

def get_learner_fn(env, rollout_length=4):
    def _env_step(carry, _):
        env_state, last_timestep = carry
        action = jnp.tanh(last_timestep.observation.agent_view)
        env_state, timestep = env.step(env_state, action)
        return (env_state, timestep), timestep.reward * last_timestep.discount

    def learner_fn(env_state, timestep):
        (env_state, timestep), rewards = jax.lax.scan(_env_step, (env_state, timestep), None, rollout_length)
        return env_state, timestep, jnp.mean(rewards)

    return learner_fn

if __name__ == "__main__":
    env = GymnaxWrapper(PointEnv())
    env_state, timestep = env.reset(jax.random.PRNGKey(0))
    learn = jax.jit(get_learner_fn(env))
    for update in range(3):
        env_state, timestep, mean_reward = learn(env_state, timestep)
        print(update, float(mean_reward))
