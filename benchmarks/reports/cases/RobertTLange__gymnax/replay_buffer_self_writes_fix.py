# source: https://github.com/RobertTLange/gymnax/commit/13f37cbba91109f8e79daf7470ad60f79bef5e75
# category: C
# expect: ok
# via: jit-decorator, partial-jit, static-argnums, dict-of-arrays, host-loop
# sink: attribute-write
"""The replay buffer is rewritten as three functions, `init_buffer`, `push_to_buffer` and
`sample_from_buffer`, that take the buffer dict and return the updated one, so nothing traced
is stored on an object between calls (the dict's counters start as int32 arrays, the type the
jitted push returns)."""
from functools import partial

import jax
import jax.numpy as jnp
from jax import jit


def init_buffer(obs_template, action_template, capacity):
    """Initialize jnp arrays based on shape of obs and capacity."""
    buffer = {}
    buffer["obs"] = jnp.zeros([capacity] + list(obs_template.shape))
    buffer["action"] = jnp.zeros([capacity] + list(action_template.shape))
    buffer["reward"] = jnp.zeros(capacity)
    buffer["capacity"] = jnp.int32(capacity)
    buffer["pointer"] = jnp.int32(0)
    buffer["total_transitions"] = jnp.int32(0)
    return buffer


@jax.jit
def push_to_buffer(buffer, obs, action, reward):
    """Store transition tuple data at step pointer location."""
    buffer["obs"] = buffer["obs"].at[buffer["pointer"], :].set(obs)
    buffer["action"] = buffer["action"].at[buffer["pointer"], :].set(action)
    buffer["reward"] = buffer["reward"].at[buffer["pointer"]].set(reward)
    buffer["pointer"] = (buffer["pointer"] + 1) % buffer["capacity"]
    buffer["total_transitions"] = jnp.minimum(buffer["total_transitions"] + 1, buffer["capacity"])
    return buffer


@partial(jit, static_argnums=(2,))
def sample_from_buffer(key, buffer, batch_size):
    """Sample a batch from buffer: (o_t, a_t, r_t_1)"""
    sample_idx = jax.random.randint(key, (batch_size,), 0, buffer["total_transitions"])
    return (jnp.take(buffer["obs"], sample_idx, axis=0),
            jnp.take(buffer["action"], sample_idx, axis=0),
            jnp.take(buffer["reward"], sample_idx, axis=0))


if __name__ == "__main__":
    buffer = init_buffer(jnp.zeros(3), jnp.zeros(1), capacity=8)
    for t in range(5):
        buffer = push_to_buffer(buffer, jnp.ones(3) * t, jnp.ones(1) * (t % 2), 1.0 * t)
    obs, action, reward = sample_from_buffer(jax.random.PRNGKey(0), buffer, 4)
    print(obs.sum(), reward)
