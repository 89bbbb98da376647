# source: https://github.com/google/brax/commit/767fa325aebb14b3831b8f0c1a78c73f718ef048
# category: R
# expect: ok
# via: jit-call, vmap, dataclass, factory-closure, host-loop
# sink: weak-type
"""Brax's PPO `train` resets a user environment with a jitted, vmapped `env.reset` and feeds the
state to a jitted `training_epoch` once per epoch.  A user `reset` that fills `reward`/`done`
from Python floats returns weakly typed arrays, while `step` returns strongly typed ones, so the
second epoch traces `training_epoch` again; the commit strips weak types from the state going
into and out of the epoch.  (brax is not installed: the env and `train` are reduced here.)"""
from typing import Any, Dict

import flax
import jax
import jax.numpy as jnp


@flax.struct.dataclass
class State:
    pipeline_state: jax.Array
    obs: jax.Array
    reward: jax.Array
    done: jax.Array
    metrics: Dict[str, Any] = flax.struct.field(default_factory=dict)


class PointEnv:
    observation_size = 2
    action_size = 2

    def reset(self, rng):
        q = jax.random.uniform(rng, (2,), minval=-1.0, maxval=1.0)
        return State(pipeline_state=q, obs=q, reward=0.0, done=0.0)

    def step(self, state, action):
        q = state.pipeline_state + 0.1 * jnp.tanh(action)
        reward = -jnp.sum(q**2)
        return state.replace(pipeline_state=q, obs=q, reward=reward, done=jnp.zeros(()))


def _strip_weak_type(tree):
    def f(leaf):
        leaf = jnp.asarray(leaf)
        return leaf.astype(leaf.dtype)

    return jax.tree_util.tree_map(f, tree)


def train(env, num_envs=4, num_evals=3, unroll_length=5, seed=0):
    reset_fn = jax.jit(jax.vmap(env.reset))
    key_env, key = jax.random.split(jax.random.PRNGKey(seed))
    env_state = reset_fn(jax.random.split(key_env, num_envs))
    params = jnp.zeros((env.observation_size, env.action_size))

    def training_epoch(params, env_state, key):
        def body(state, _):
            action = state.obs @ params
            state = jax.vmap(env.step)(state, action)
            return state, state.reward

        env_state, rewards = jax.lax.scan(body, env_state, None, length=unroll_length)
        params = params + 1e-3 * jnp.mean(rewards)
        return params, env_state, {"reward": jnp.mean(rewards)}

    training_epoch = jax.jit(training_epoch)

    def training_epoch_with_timing(params, env_state, key):
        params, env_state = _strip_weak_type((params, env_state))
        result = training_epoch(params, env_state, key)
        params, env_state, metrics = _strip_weak_type(result)
        return params, env_state, metrics

    for it in range(num_evals):
        key, epoch_key = jax.random.split(key)
        params, env_state, metrics = training_epoch_with_timing(params, env_state, epoch_key)
        print(it, metrics["reward"])
    return params


if __name__ == "__main__":
    print(train(PointEnv()))
