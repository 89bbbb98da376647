# source: https://github.com/kscalelabs/ksim/commit/a8a12d3c194ab98b45732f4b1a81843fa0fe35fa
# category: B
# expect: ok
# via: jit-decorator, static-argnums, method, class-attribute, dataclass
# sink: static-array
"""AvoidLimitsReward is a frozen attrs class whose `create` stores the joint limits as raw jax
arrays; the rewards are handed to the jitted reward function as a static argument, so hashing the
reward hashes the arrays and jit refuses the non-hashable static argument. The fix wraps the
arrays in a hashable array wrapper."""
from functools import partial

import attrs
import jax
import jax.numpy as jnp
import numpy as np


@attrs.define(frozen=True)
class HashableArray:
    array: np.ndarray

    def __hash__(self):
        return hash(np.asarray(self.array).tobytes())

    def __eq__(self, other):
        return isinstance(other, HashableArray) and bool(np.array_equal(self.array, other.array))


def hashable_array(x):
    return HashableArray(np.asarray(x))


@attrs.define(frozen=True, kw_only=True)
class AvoidLimitsReward:
    joint_limits: HashableArray
    joint_limited: HashableArray

    def get_reward(self, qpos):
        joint_pos = qpos[..., 7:]
        joint_limits = self.joint_limits.array
        joint_limited = self.joint_limited.array
        in_bounds = (joint_pos > joint_limits[..., 0]) & (joint_pos < joint_limits[..., 1])
        reward = jnp.where(joint_limited, in_bounds, 0)
        return reward.all(axis=-1).astype(qpos.dtype)

    @classmethod
    def create(cls, jnt_range, jnt_limited, factor=0.05):
        jnt_min, jnt_max = jnt_range[..., 0], jnt_range[..., 1]
        jnt_diff = (jnt_max - jnt_min) * factor
        return cls(
            joint_limits=hashable_array(jnp.stack([jnt_min - jnt_diff, jnt_max + jnt_diff], axis=-1)),
            joint_limited=hashable_array(jnt_limited),
        )


@partial(jax.jit, static_argnames=["rewards"])
def get_rewards(qpos, rewards):
    return {type(r).__name__: r.get_reward(qpos) for r in rewards}


if __name__ == "__main__":
    jnt_range = jnp.array([[-1.0, 1.0], [-0.5, 0.5], [-2.0, 2.0]])
    jnt_limited = jnp.array([True, True, False])
    rewards = (AvoidLimitsReward.create(jnt_range, jnt_limited),)
    qpos = jnp.concatenate([jnp.zeros((2, 7)), jnp.array([[0.1, 0.2, 3.0], [2.0, 0.0, 0.0]])], axis=-1)
    print(get_rewards(qpos, rewards=rewards))
