# source: https://github.com/instadeepai/jumanji/commit/cae21acb4839be895f1a9a5d537d04dbe28bca60
# category: R
# expect: ok
# via: jit-call, method, dataclass, host-loop
# sink: weak-type
"""Jumanji's PacMan `AsciiGenerator` put the pellet count into the initial state as
`pellets=self.pellet_spaces.shape[0]`, a Python int.  `step` subtracts the eaten pellets with
`ate_pellet.astype(int)` and hands back a strongly typed count, so a jitted `step` driven from a
host loop is traced once for the weakly typed count of the first state and again for every
state after it; the commit builds the count as `jnp.array(pellets, jnp.int32)`.  (jumanji and
chex are not installed: the generator, PacMan and its chex dataclass State are reduced here.)"""
import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class State:
    key: jax.Array
    player_locations: jax.Array
    pellet_locations: jax.Array
    pellets: jax.Array
    score: jax.Array


class AsciiGenerator:
    def __init__(self, maze):
        self.pellet_spaces = jnp.array(
            [(x, y) for x, row in enumerate(maze) for y, c in enumerate(row) if c == "."], jnp.int32
        )

    def __call__(self, key):
        pellets = self.pellet_spaces.shape[0]
        return State(
            key=key,
            player_locations=jnp.array([1, 1], jnp.int32),
            pellet_locations=self.pellet_spaces,
            pellets=jnp.array(pellets, jnp.int32),
            score=jnp.array(0, jnp.int32),
        )


class PacMan:
    MOVES = jnp.array([[-1, 0], [0, 1], [1, 0], [0, -1]], jnp.int32)

    def __init__(self, generator):
        self.generator = generator

    def reset(self, key):
        return self.generator(key)

    def step(self, state, action):
        pos = jnp.clip(state.player_locations + self.MOVES[action], 0, 4)
        ate_pellet = jnp.any(jnp.all(state.pellet_locations == pos, axis=-1))
        pellet_locations = jnp.where(jnp.all(state.pellet_locations == pos, axis=-1)[:, None], -1, state.pellet_locations)
        num_pellets = state.pellets - ate_pellet.astype(int)
        score = state.score + ate_pellet.astype(jnp.int32) * 10
        return dataclasses.replace(state, player_locations=pos, pellet_locations=pellet_locations, pellets=num_pellets, score=score)


if __name__ == "__main__":
    maze = ["#####", "#...#", "#.#.#", "#...#", "#####"]
    env = PacMan(AsciiGenerator(maze))
    step_fn = jax.jit(env.step)
    state = env.reset(jax.random.PRNGKey(0))
    for action in [1, 1, 2, 2, 3]:
        state = step_fn(state, jnp.int32(action))
        print(state.player_locations, state.pellets, state.score)
