# source: https://github.com/RobertTLange/gymnax/commit/13f37cbba91109f8e79daf7470ad60f79bef5e75
# category: C
# expect: raises
# via: partial-jit, static-argnums, method, class-attribute, host-loop
# sink: attribute-write
"""A replay buffer jitted its `push` and `sample` methods with `self` static; `push` stored the
updated buffers and counters on `self`, so the attributes hold tracers of the first push trace
and the jitted `sample` reads those escaped tracers."""
from functools import partial

import jax
import jax.numpy as jnp
from jax import jit


class ReplayBuffer(object):
    """A JAX-based replay buffer. JIT-through sampling and storage calls."""

    def __init__(self, obs_template, action_template, capacity):
        self.obs_shape = list(obs_template.shape)
        self.action_shape = list(action_template.shape)
        self.obs_buffer = jnp.zeros([capacity] + self.obs_shape)
        self.action_buffer = jnp.zeros([capacity] + self.action_shape)
        self.reward_buffer = jnp.zeros(capacity)
        self.capacity = capacity
        self.buffer_pointer = jnp.int32(0)
        self.total_transitions = jnp.int32(0)

    @partial(jit, static_argnums=(0,))
    def push(self, obs, action, reward):
        """Store transition tuple data at step pointer location."""
        self.obs_buffer = self.obs_buffer.at[self.buffer_pointer, :].set(obs)  # <-- bug
        self.action_buffer = self.action_buffer.at[self.buffer_pointer, :].set(action)
        self.reward_buffer = self.reward_buffer.at[self.buffer_pointer].set(reward)
        self.buffer_pointer += 1
        self.total_transitions = jnp.minimum(self.total_transitions + 1, self.capacity)
        self.buffer_pointer = self.buffer_pointer % self.capacity

    @partial(jit, static_argnums=(0, 2))
    def sample(self, key, batch_size):
        """Sample a batch from buffer: (o_t, a_t, r_t_1)"""
        sample_idx = jax.random.randint(key, (batch_size,), 0, self.total_transitions)  # <-- bug
        return (jnp.take(self.obs_buffer, sample_idx, axis=0),
                jnp.take(self.action_buffer, sample_idx, axis=0),
                jnp.take(self.reward_buffer, sample_idx, axis=0))


if __name__ == "__main__":
    buffer = ReplayBuffer(jnp.zeros(3), jnp.zeros(1), capacity=8)
    for t in range(5):
        buffer.push(jnp.ones(3) * t, jnp.ones(1) * (t % 2), 1.0 * t)
    obs, action, reward = buffer.sample(jax.random.PRNGKey(0), 4)  # <-- bug
    print(obs.sum(), reward)
