# source: https://github.com/bold-lab-ai/JaxMARL/issues/144
# category: R
# expect: recompiles
# via: dataclass, factory-closure, jit-call, host-loop
# sink: weak-type
"""JaxMARL's heuristic SMAX enemy starts its policy state with `last_attacked_enemy=-1`, a Python
int that JAX sees as a weakly typed int32; after one step the field holds the int32 result of
`lax.select`, so a jitted step taking the state is traced again.  Starting from a strongly typed
int32 array keeps the state's type stable."""
import jax
import jax.numpy as jnp
from flax.struct import dataclass


@dataclass
class HeuristicPolicyState:
    default_target: jax.Array
    last_attacked_enemy: int


def create_heuristic_policy(num_enemies, num_move_actions=5):
    def get_heuristic_action(key, state, enemy_positions):
        shootable_enemy_mask = jnp.linalg.norm(enemy_positions, axis=-1) < 3.0
        closest_attack_action = jnp.argmin(jnp.linalg.norm(enemy_positions, axis=-1)) + num_move_actions
        attack_action = jax.lax.select(
            (state.last_attacked_enemy != -1) & shootable_enemy_mask[state.last_attacked_enemy],
            state.last_attacked_enemy + num_move_actions,
            closest_attack_action,
        )
        attacked_idx = attack_action - num_move_actions
        state = state.replace(
            last_attacked_enemy=jax.lax.select(shootable_enemy_mask[attacked_idx], attacked_idx, -1)
        )
        return attack_action, state

    return get_heuristic_action


def get_heuristic_policy_initial_state():
    return HeuristicPolicyState(default_target=jnp.array([0.0, 0.0]), last_attacked_enemy=-1)


if __name__ == "__main__":
    policy = jax.jit(create_heuristic_policy(num_enemies=3))
    key = jax.random.PRNGKey(0)
    enemy_positions = jnp.array([[1.0, 1.0], [4.0, 0.0], [0.0, 2.0]])
    state = get_heuristic_policy_initial_state()
    for t in range(3):
        key, subkey = jax.random.split(key)
        action, state = policy(subkey, state, enemy_positions)  # <-- bug
        print(t, int(action), int(state.last_attacked_enemy))
