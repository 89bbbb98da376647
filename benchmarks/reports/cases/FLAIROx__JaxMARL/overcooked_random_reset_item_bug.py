# source: https://github.com/FLAIROx/JaxMARL/commit/1b39f4286b52206a9760df4ccb5f957499ec55ad
# category: A
# expect: raises
# via: method, jit-call
# sink: item
"""JaxMARL's Overcooked randomized reset counted the free counter cells with
`empty_table_mask.sum().item()` and drew that many random items; the randomized start worked
eagerly but `jax.jit(env.reset)` could not concretize the count.  The environment later dropped
the data-dependent item sampling and kept only fixed-size random draws (agent cells)."""
import jax
import jax.numpy as jnp
import numpy as np


class Overcooked:
    def __init__(self, layout, random_reset=True):
        self.layout = layout
        self.height, self.width = layout["height"], layout["width"]
        self.random_reset = random_reset
        self.num_agents = 2

    def reset(self, key):
        h, w = self.height, self.width
        all_pos = np.arange(np.prod([h, w]), dtype=jnp.uint32)
        wall_idx = jnp.asarray(self.layout["wall_idx"])
        occupied_mask = jnp.zeros_like(all_pos).at[wall_idx].set(1)

        key, subkey = jax.random.split(key)
        agent_idx = jax.random.choice(subkey, all_pos, shape=(self.num_agents,),
                                      p=(~occupied_mask.astype(jnp.bool_)).astype(jnp.float32), replace=False)

        empty_table_mask = jnp.zeros_like(all_pos).at[wall_idx].set(1)
        key, num_key = jax.random.split(key)
        num_spots = empty_table_mask.sum().item()  # <-- bug
        items = jax.random.randint(num_key, (num_spots,), 0, 4)
        return agent_idx, items


if __name__ == "__main__":
    layout = {"height": 4, "width": 5, "wall_idx": [0, 1, 2, 3, 4, 5, 9, 10, 14, 15, 16, 17, 18, 19]}
    env = Overcooked(layout)
    agent_idx, items = jax.jit(env.reset)(jax.random.PRNGKey(0))
    print(agent_idx, items)
