# source: https://github.com/RobertTLange/gymnax/pull/74
# category: A
# expect: ok
# via: jit-call, method, helper, dataclass
# sink: int-float-bool
"""The MinAtar Asterix entity step sums collisions into a counter and returns `jnp.bool_(done > 0)`,
which stays an array under jax.jit instead of asking Python's bool() for a concrete value."""
import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class EnvState:
    player_x: jnp.ndarray
    player_y: jnp.ndarray
    entities: jnp.ndarray
    move_timer: jnp.ndarray


def step_entities(state: EnvState):
    """Update entities, check collisions with the player."""
    reward, done = 0, False
    entities = state.entities
    for i in range(4):
        x = entities[i]
        slot_filled = x[4] != 0
        coords = jnp.logical_and(x[0] == state.player_x, x[1] == state.player_y)
        collision = jnp.logical_and(coords, slot_filled)
        collision_gold = jnp.logical_and(collision, x[3])
        reward += collision_gold
        entities = entities.at[i].set(x * (1 - collision_gold))
        collision_enemy = jnp.logical_and(collision, 1 - x[3])
        done += collision_enemy
    return (
        state.replace(entities=entities),
        reward,
        jnp.bool_(done > 0),
    )


class Asterix:
    def step_env(self, key, state: EnvState, action):
        state = state.replace(player_x=jnp.clip(state.player_x + action - 1, 0, 9))
        state, reward, done = step_entities(state)
        return state, reward * 1.0, done


if __name__ == "__main__":
    env = Asterix()
    entities = jnp.array([[3, 1, 1, 1, 1], [5, 2, 0, 0, 1], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]])
    state = EnvState(player_x=jnp.asarray(2), player_y=jnp.asarray(1), entities=entities, move_timer=jnp.asarray(0))
    state, reward, done = jax.jit(env.step_env)(jax.random.PRNGKey(0), state, 2)
    print(state.entities, reward, done)
