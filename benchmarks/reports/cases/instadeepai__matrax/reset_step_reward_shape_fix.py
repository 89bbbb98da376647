# source: https://github.com/instadeepai/matrax/pull/6
# category: R
# expect: ok
# via: method, dataclass, namedtuple, vmap, lax-cond, jit-call, host-loop
# sink: changing-shape
"""MatrixGame passes `shape=num_agents` to Jumanji's restart/transition/termination and casts
the payoff rewards to float, so `reset` and `step` return timesteps of one shape and dtype and the
jitted acting step that carries the timestep is traced once.  (jumanji and chex are not
installed: reduced here.)"""
import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp
from flax import struct


class TimeStep(NamedTuple):
    step_type: jax.Array
    reward: jax.Array
    discount: jax.Array
    observation: jax.Array


def restart(observation, shape=()):
    return TimeStep(jnp.int8(0), jnp.zeros(shape, float), jnp.ones(shape, float), observation)


def transition(reward, observation, shape=()):
    return TimeStep(jnp.int8(1), reward, jnp.ones(shape, float), observation)


def termination(reward, observation, shape=()):
    return TimeStep(jnp.int8(2), reward, jnp.zeros(shape, float), observation)


@struct.dataclass
class State:
    step_count: jax.Array
    key: jax.Array


class MatrixGame:
    def __init__(self, payoff_matrix, time_limit=5):
        self.payoff_matrix = payoff_matrix
        self.num_agents = payoff_matrix.shape[0]
        self.time_limit = time_limit

    def reset(self, key):
        state = State(step_count=jnp.array(0, int), key=key)
        observation = jnp.ones((self.num_agents, self.num_agents), int) * -1
        return state, restart(observation=observation, shape=self.num_agents)

    def step(self, state, actions):
        def compute_reward(actions, payoff_matrix_per_agent):
            return payoff_matrix_per_agent[tuple(actions)].astype(float)

        rewards = jax.vmap(functools.partial(compute_reward, actions))(self.payoff_matrix)
        steps = state.step_count + 1
        next_observation = jnp.tile(actions, (self.num_agents, 1))
        timestep = jax.lax.cond(
            steps >= self.time_limit,
            lambda: termination(reward=rewards, observation=next_observation, shape=self.num_agents),
            lambda: transition(reward=rewards, observation=next_observation, shape=self.num_agents),
        )
        return State(step_count=steps, key=state.key), timestep


if __name__ == "__main__":
    payoff = jnp.array([[[11, -30], [-30, 7]], [[11, -30], [-30, 7]]])
    env = MatrixGame(payoff)

    @jax.jit
    def act_and_step(state, timestep, key):
        logits = jnp.zeros((env.num_agents, 2)) + timestep.reward.sum()
        actions = jax.random.categorical(key, logits)
        return env.step(state, actions)

    key = jax.random.PRNGKey(0)
    state, timestep = env.reset(key)
    for _ in range(4):
        key, sub = jax.random.split(key)
        state, timestep = act_and_step(state, timestep, sub)
        print(int(state.step_count), timestep.reward.tolist())
