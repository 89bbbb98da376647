# source: https://github.com/ucl-dark/pax/commit/bcb9c6364a6ce3023b799070d04dc3e3ef805d35
# category: C
# expect: raises
# via: method, lax-scan, namedtuple, host-loop
# sink: attribute-write
"""In the meta-learning runner the inner agent's `update` runs inside `jax.lax.scan` (once per
trial) and also stores the new state on the agent as `self._state`.  The next outer episode starts
from `agent2.reset_memory()`, which hands back that stored scan tracer, and the rollout fails with
an UnexpectedTracerError.  The commit stops `update` from writing `self._state` and reassigns the
agent's state from the scan's result, outside the scan."""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class TrainingState(NamedTuple):
    params: jnp.ndarray
    extras: dict


class PPO:
    def __init__(self, num_envs):
        self._num_envs = num_envs
        self._state = TrainingState(jnp.zeros(3), {"values": jnp.zeros(num_envs)})

    def reset_memory(self) -> TrainingState:
        self._state = self._state._replace(extras={"values": jnp.zeros(self._num_envs)})
        return self._state

    def update(self, traj_batch, state):
        """Update the agent -> only called at the end of a trajectory"""
        params = state.params + 0.1 * traj_batch.mean()
        state = state._replace(params=params)
        self._state = state  # <-- bug
        return state


class MetaRunner:
    def run_loop(self, agent2, num_episodes, num_trials=4, inner_len=5):
        def _inner_rollout(carry, unused):
            a2_state = carry
            reward = jnp.tanh(a2_state.params.sum()) * jnp.ones(agent2._num_envs)
            return a2_state, reward

        def _outer_rollout(carry, unused):
            a2_state = carry
            a2_state, trajectories = jax.lax.scan(_inner_rollout, a2_state, None, length=inner_len)
            a2_state = agent2.update(trajectories, a2_state)
            return a2_state, trajectories

        for _ in range(num_episodes):
            a2_state = agent2.reset_memory()
            vals, trajectories = jax.lax.scan(  # <-- bug
                _outer_rollout, a2_state, None, length=num_trials)
            print("Total Episode Reward:", round(float(trajectories.mean()), 4))
        return vals


if __name__ == "__main__":
    agent2 = PPO(num_envs=2)
    final = MetaRunner().run_loop(agent2, num_episodes=3)
    print(final.params)
