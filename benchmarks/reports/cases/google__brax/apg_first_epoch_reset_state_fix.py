# source: https://github.com/google/brax/pull/476
# category: R
# expect: ok
# via: jit-call, vmap, dataclass, factory-closure, host-loop
# sink: weak-type
"""Brax's APG `train` starts the epoch loop from the state returned by the jitted `reset_fn`, but
a fresh reset fills reward, done and `info` with Python numbers (weakly typed arrays after the
jitted reset) while `step` returns strongly typed ones, so the state given to the jitted training
epoch on the second epoch has new types and the epoch compiles again.  The pull request takes one `step_fn` on the reset state before the loop ("Prevent
recompilation on the second epoch").  (brax is not installed: the env and `train` are reduced.)"""
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
    info: Dict[str, Any] = flax.struct.field(default_factory=dict)


class EpisodeEnv:
    observation_size = 3
    action_size = 3

    def reset(self, rng):
        q = jax.random.normal(rng, (3,))
        return State(q, q, 0.0, 0.0, info={"steps": 0.0, "truncation": 0.0})

    def step(self, state, action):
        q = state.pipeline_state + 0.05 * action
        steps = state.info["steps"] + 1
        info = {"steps": steps, "truncation": jnp.where(steps >= 100, 1.0, 0.0)}
        return State(q, q, -jnp.sum(q**2), jnp.zeros(()), info=info)


def train(env, num_envs=4, num_evals=3, episode_length=4, seed=0):
    reset_fn = jax.jit(jax.vmap(env.reset))
    step_fn = jax.jit(jax.vmap(env.step))
    policy = jnp.zeros((env.observation_size, env.action_size))

    def training_epoch(policy, env_state):
        def loss(policy):
            def body(state, _):
                state = jax.vmap(env.step)(state, state.obs @ policy)
                return state, state.reward

            state, rewards = jax.lax.scan(body, env_state, None, length=episode_length)
            return -jnp.mean(rewards), state

        grad, env_state_out = jax.grad(loss, has_aux=True)(policy)
        return policy - 1e-2 * grad, env_state_out

    training_epoch = jax.jit(training_epoch)

    init_key = jax.random.split(jax.random.PRNGKey(seed), num_envs)
    env_state = reset_fn(init_key)
    env_state = step_fn(
        env_state, jnp.zeros((num_envs, env.action_size))
    )  # Prevent recompilation on the second epoch

    for it in range(num_evals):
        policy, env_state = training_epoch(policy, env_state)
        print(it, jnp.mean(env_state.reward))
    return policy


if __name__ == "__main__":
    print(train(EpisodeEnv()))
