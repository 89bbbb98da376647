# source: https://github.com/instadeepai/jumanji/blob/590005b0fb305b1a98a4828bfb6b2ea28b47dd5b/jumanji/environments/logic/game_2048/env_test.py#L63
# category: R
# expect: ok
# via: jit-call, method, dataclass, host-loop
# sink: weak-type
"""Jumanji's 2048 test jits `env.step` and checks it compiles once over consecutive steps from a state
made by the un-jitted `reset`.  If `reset` fills the step counter and score with Python numbers,
the first step is traced with weakly typed scalars and returns strongly typed ones, so the next
step traces `step` again; `reset` builds them as `jnp.array(0, jnp.int32)` and
`jnp.array(0, float)`.  (jumanji and chex are not installed: Game2048 and its chex dataclass State are
reduced here.)"""
import flax
import jax
import jax.numpy as jnp


@flax.struct.dataclass
class State:
    board: jax.Array
    step_count: jax.Array
    action_mask: jax.Array
    score: jax.Array
    key: jax.Array


class Game2048:
    def __init__(self, board_size: int = 4):
        self.board_size = board_size

    def reset(self, key):
        key, cell_key = jax.random.split(key)
        cell = jax.random.randint(cell_key, (), 0, self.board_size**2)
        board = jnp.zeros((self.board_size**2,), jnp.int32).at[cell].set(1)
        board = board.reshape(self.board_size, self.board_size)
        return State(board=board, step_count=jnp.array(0, jnp.int32), action_mask=jnp.ones((4,), bool), score=jnp.array(0, float), key=key)

    def step(self, state, action):
        merged = jnp.sort(state.board, axis=1)
        board = jnp.where(action % 2 == 0, merged[:, ::-1], merged)
        reward = jnp.sum(board == state.board).astype(float)
        key, _ = jax.random.split(state.key)
        return State(
            board=board,
            step_count=state.step_count + 1,
            action_mask=state.action_mask,
            score=state.score + reward,
            key=key,
        )


if __name__ == "__main__":
    game_2048 = Game2048()
    state = game_2048.reset(jax.random.PRNGKey(0))
    step_fn = jax.jit(game_2048.step)
    for _ in range(3):
        action = jnp.argmax(state.action_mask)
        state = step_fn(state, action)
    print(state.step_count, state.score, state.board)
