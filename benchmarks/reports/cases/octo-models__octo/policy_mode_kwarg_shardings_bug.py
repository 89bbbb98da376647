# source: https://github.com/octo-models/octo/commit/1d65f2158949b2735f2397e77e6cfd193d271779
# category: B
# expect: raises
# via: partial-jit, factory-closure, host-loop
# sink: static-spec
"""Octo's training script jitted `get_policy_sampled_actions` with `in_shardings` for its three
array arguments and `static_argnames=("policy_mode",)`, then handed the evaluation loop
`partial(get_policy_sampled_actions, train_state, policy_mode=k)`; the keyword call is refused by
jit once `in_shardings` is given."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec


def main():
    mesh = Mesh(np.array(jax.devices()), ("batch",))
    replicated_sharding = NamedSharding(mesh, PartitionSpec())
    dp_sharding = NamedSharding(mesh, PartitionSpec("batch"))
    horizon = 2
    train_state = {"w": jnp.ones((3, 4))}

    @partial(
        jax.jit,
        in_shardings=(replicated_sharding, dp_sharding, dp_sharding),
        out_shardings=dp_sharding,
        static_argnames=("policy_mode",),
    )
    def get_policy_sampled_actions(state, observations, tasks, policy_mode=None):
        observations = jax.tree_util.tree_map(lambda x: x[:, -horizon:], observations)
        if policy_mode == "text_conditioned":
            tasks = tasks * 0.0
        elif policy_mode == "unconditioned":
            observations = jax.tree_util.tree_map(jnp.zeros_like, observations)
        return observations["image"].sum(axis=1) @ state["w"] + tasks

    observations = {"image": jnp.ones((4, 5, 3))}
    tasks = jnp.ones((4, 4))
    k = "text_conditioned"
    for step in range(2):
        policy_fn = partial(get_policy_sampled_actions, train_state, policy_mode=k)
        actions = policy_fn(observations, tasks)  # <-- bug
        print(step, k, actions.shape, float(actions.sum()))


if __name__ == "__main__":
    main()
