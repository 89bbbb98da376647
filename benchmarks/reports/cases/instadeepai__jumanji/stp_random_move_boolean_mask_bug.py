# source: https://github.com/instadeepai/jumanji/commit/7b4ce1c6a95b456701ffb8b7b9b9092ac58131b9
# category: A
# expect: raises
# via: jit-call, method, class-attribute
# sink: boolean-mask
"""The sliding-tile generator picked a random move by filtering the move indices with a boolean
mask of valid moves; under jit the mask is traced and the filtered array has no static size."""
from typing import Tuple

import jax
import jax.numpy as jnp

EMPTY_TILE = 0
UP, DOWN, LEFT, RIGHT = [-1, 0], [1, 0], [0, -1], [0, 1]
MOVES = jnp.array([UP, RIGHT, DOWN, LEFT])


class SolvableSTPGenerator:
    def __init__(self, grid_size: int, num_shuffle_moves: int = 100):
        self._grid_size = grid_size
        self.num_shuffle_moves = num_shuffle_moves

    def __call__(self, key) -> Tuple[jax.Array, jax.Array]:
        puzzle = jnp.append(jnp.arange(1, self._grid_size**2), EMPTY_TILE).reshape(
            (self._grid_size, self._grid_size)
        )
        empty_tile_position = jnp.array([self._grid_size - 1, self._grid_size - 1])
        for _ in range(self.num_shuffle_moves):
            key, subkey = jax.random.split(key)
            empty_tile_position, puzzle = self._make_random_move(subkey, puzzle, empty_tile_position)
        return puzzle, empty_tile_position

    def _swap_tiles(self, puzzle, pos1, pos2):
        temp = puzzle[tuple(pos1)]
        puzzle = puzzle.at[tuple(pos1)].set(puzzle[tuple(pos2)])
        return puzzle.at[tuple(pos2)].set(temp)

    def _make_random_move(self, key, puzzle, empty_tile_position):
        key, subkey = jax.random.split(key)
        new_positions = empty_tile_position + MOVES
        valid_moves_mask = (new_positions >= 0) & (new_positions < self._grid_size)
        valid_moves_mask = jnp.all(valid_moves_mask, axis=-1)
        all_move_indices = jnp.arange(len(MOVES))
        valid_move_indices = all_move_indices[valid_moves_mask]  # <-- bug
        move_index = jax.random.choice(subkey, valid_move_indices, shape=())
        move = MOVES[move_index]
        new_empty_tile_position = empty_tile_position + move
        updated_puzzle = self._swap_tiles(puzzle, empty_tile_position, new_empty_tile_position)
        return new_empty_tile_position, updated_puzzle


if __name__ == "__main__":
    generator = SolvableSTPGenerator(grid_size=3, num_shuffle_moves=6)
    puzzle, empty = jax.jit(generator)(jax.random.PRNGKey(0))
    print(puzzle, empty)
