# source: https://github.com/talmolab/track-mjx/issues/45
# category: R
# expect: ok
# via: jit-call, method, factory-closure, wrapper, host-loop
# sink: fresh-callable
"""track-mjx's evaluation callback wrapped the environment in a new rollout wrapper and called
`jax.jit` on its `reset`/`step` and on a policy closed over the current parameters every time it
ran, so each evaluation during training traced and compiled the environment and the policy
again.  The fix jits reset, step and a params-taking inference function once and passes them
in."""
import jax
import jax.numpy as jnp


class State(dict):
    pass


jax.tree_util.register_pytree_node(State, lambda s: (tuple(s.values()), tuple(s.keys())), lambda k, v: State(zip(k, v)))


class RenderRolloutWrapperTracking:
    def __init__(self, env):
        self.env = env

    def reset(self, rng):
        return State(obs=jax.random.normal(rng, (4,)), reward=jnp.zeros(()))

    def step(self, state, action):
        obs = state["obs"] + 0.1 * jnp.tanh(action)
        return State(obs=obs, reward=-jnp.sum(obs**2))


def make_logging_policy(deterministic=True):
    def policy(params, obs, key):
        return obs @ params, {}

    return policy


def setup_training_logging(num_steps, jit_reset, jit_step, jit_logging_inference_fn, params, rollout_key):
    rollout_key, reset_rng, act_rng = jax.random.split(rollout_key, 3)
    state = jit_reset(reset_rng)
    rewards = []
    for i in range(5):
        _, act_rng = jax.random.split(act_rng)
        ctrl, extras = jit_logging_inference_fn(params, state["obs"], act_rng)
        state = jit_step(state, ctrl)
        rewards.append(state["reward"])
    return float(jnp.mean(jnp.stack(rewards)))


if __name__ == "__main__":
    env = object()
    key = jax.random.PRNGKey(0)
    params = -0.5 * jnp.eye(4)
    rollout_env = RenderRolloutWrapperTracking(env)
    jit_reset = jax.jit(rollout_env.reset)
    jit_step = jax.jit(rollout_env.step)
    jit_logging_inference_fn = jax.jit(make_logging_policy(deterministic=True))
    for num_steps in range(0, 3000, 1000):  # policy_params_fn is called at every evaluation
        key, sub = jax.random.split(key)
        params = params * 0.9
        print(num_steps, round(setup_training_logging(num_steps, jit_reset, jit_step, jit_logging_inference_fn, params, sub), 4))
