# source: https://github.com/MichaelTMatthews/Craftax/pull/48
# category: B
# expect: raises
# via: method, partial-jit, static-argnums, vmap, dataclass
# sink: static-unhashable
"""Craftax's no-auto-reset environment base jitted `step` with `static_argnums=(0, 4)`, so the
`EnvParams` dataclass was a static argument.  Stepping a batch of environments whose parameters
are vmapped (one spawn rate per environment) hands jit a params object full of tracers, which
cannot be hashed as a static argument.  (Craftax is not installed: the classic env is reduced.)"""
from functools import partial
from typing import Union

import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class EnvParams:
    max_timesteps: int = 10000
    zombie_health: int = 5
    spawn_cow_chance: float = 0.1


@struct.dataclass
class EnvState:
    player_health: jax.Array
    cows: jax.Array
    timestep: int


class EnvironmentNoAutoReset(object):
    @property
    def default_params(self):
        return EnvParams()

    @partial(jax.jit, static_argnums=(0, 4))
    def step(self, key: jax.Array, state, action: Union[int, float], params=None):
        if params is None:
            params = self.default_params
        return self.step_env(key, state, action, params)

    def step_env(self, key, state, action, params):
        spawn = jax.random.uniform(key) < params.spawn_cow_chance
        state = state.replace(cows=state.cows + spawn, timestep=state.timestep + 1)
        reward = jnp.where(action == 1, 0.1 * state.cows, 0.0)
        done = state.timestep >= params.max_timesteps
        return state.cows.astype(jnp.float32), state, reward, done, {}


if __name__ == "__main__":
    env = EnvironmentNoAutoReset()
    n_envs = 4
    params = jax.vmap(lambda c: EnvParams(spawn_cow_chance=c))(jnp.linspace(0.05, 0.5, n_envs))
    state = EnvState(jnp.full(n_envs, 9.0), jnp.zeros(n_envs, jnp.int32), jnp.zeros(n_envs, jnp.int32))
    keys = jax.random.split(jax.random.key(0), n_envs)
    actions = jnp.ones(n_envs, jnp.int32)
    step = jax.vmap(lambda k, s, a, p: env.step(k, s, a, p))  # <-- bug
    obs, state, reward, done, _ = step(keys, state, actions, params)
    print(obs, reward)
