# source: https://github.com/mlaux1/rl-blox/commit/b0efa4c895ed9a583e019699fe63380eb1b85e07
# category: B
# expect: ok
# via: flax-nnx, partial-jit, static-argnums, optax
# sink: static-spec
"""TD7's critic update listed `min_target_value` and `max_target_value` in the `static_argnames`
of its `nnx.jit`, but the parameters had been renamed to `q_min` and `q_max`; JAX checks the
names against the signature and rejects the decorator because the function has no such
arguments.  Naming the parameters as they are now called makes the bounds static.  (A small critic stands in for rl-blox's networks.)"""
from functools import partial

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class ContinuousClippedDoubleQNet(nnx.Module):
    def __init__(self, n_in, rngs):
        self.q1 = nnx.Linear(n_in, 1, rngs=rngs)
        self.q2 = nnx.Linear(n_in, 1, rngs=rngs)

    def __call__(self, x):
        return jnp.minimum(self.q1(x), self.q2(x))[..., 0]


@partial(
    nnx.jit,
    static_argnames=["gamma", "min_priority", "q_min", "q_max"],
)
def td7_update_critic(critic, critic_target, critic_optimizer, gamma, observation,
                      next_observation, reward, terminated, min_priority, q_min, q_max):
    next_q = jnp.clip(critic_target(next_observation), q_min, q_max)
    target = reward + (1.0 - terminated) * gamma * next_q

    def loss(critic):
        td = critic(observation) - target
        return jnp.mean(optax.huber_loss(td)), jnp.abs(td)

    (value, abs_td_error), grads = nnx.value_and_grad(loss, has_aux=True)(critic)
    critic_optimizer.update(critic, grads)
    return value, jnp.maximum(abs_td_error, min_priority)


if __name__ == "__main__":
    critic = ContinuousClippedDoubleQNet(4, nnx.Rngs(0))
    critic_target = ContinuousClippedDoubleQNet(4, nnx.Rngs(1))
    opt = nnx.Optimizer(critic, optax.adam(3e-4), wrt=nnx.Param)
    obs = jax.random.normal(jax.random.key(0), (8, 4))
    next_obs = jax.random.normal(jax.random.key(1), (8, 4))
    reward, terminated = jnp.ones(8), jnp.zeros(8)
    q_min, q_max = -10.0, 10.0
    for step in range(3):
        value, priority = td7_update_critic(critic, critic_target, opt, 0.99, obs, next_obs,
                                            reward, terminated, 1.0, q_min, q_max)
        print(step, float(value), float(priority.mean()))
