# source: https://github.com/mlaux1/rl-blox/pull/157
# category: R
# expect: ok
# via: flax-nnx, partial-jit, static-argnums, dataclass, host-loop
# sink: changing-static
"""The clipping bounds are no longer static: `q_min` and `q_max` are traced scalars, so moving
the range of target values reuses the compiled critic step."""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp
import optax
from flax import nnx


@dataclasses.dataclass
class ValueClippingState:
    min_value: float = 1e8
    max_value: float = -1e8
    min_target_value: float = 0.0
    max_target_value: float = 0.0

    def update_range(self, q_target):
        self.min_value = min(self.min_value, float(q_target.min()))
        self.max_value = max(self.max_value, float(q_target.max()))

    def update_target_range(self):
        self.min_target_value = self.min_value
        self.max_target_value = self.max_value


@partial(nnx.jit, static_argnames=["gamma"])
def td7_update_critic(critic, critic_target, critic_optimizer, gamma, obs_act, next_obs_act, reward, terminated, q_min, q_max):
    q_next_target = jnp.clip(critic_target(next_obs_act).squeeze(), q_min, q_max)
    q_target = reward + (1 - terminated) * gamma * q_next_target

    def loss_fn(critic):
        return optax.huber_loss(critic(obs_act).squeeze(), q_target).mean()

    loss, grads = nnx.value_and_grad(loss_fn)(critic)
    critic_optimizer.update(critic, grads)
    return loss, q_target


if __name__ == "__main__":
    critic = nnx.Linear(4, 1, rngs=nnx.Rngs(0))
    critic_target = nnx.Linear(4, 1, rngs=nnx.Rngs(0))
    critic_optimizer = nnx.Optimizer(critic, optax.adam(1e-3), wrt=nnx.Param)
    value_clipping_state = ValueClippingState()
    key = jax.random.PRNGKey(0)
    for epoch in range(1, 7):
        key, k1, k2 = jax.random.split(key, 3)
        obs_act, next_obs_act = jax.random.normal(k1, (2, 16, 4))
        reward = jax.random.uniform(k2, (16,))
        terminated = jnp.zeros(16)
        loss, q_target = td7_update_critic(
            critic, critic_target, critic_optimizer, 0.99, obs_act, next_obs_act, reward, terminated,
            value_clipping_state.min_target_value, value_clipping_state.max_target_value,
        )
        value_clipping_state.update_range(q_target)
        if epoch % 2 == 0:
            value_clipping_state.update_target_range()
    print(round(float(loss), 3))
