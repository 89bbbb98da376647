# source: https://github.com/epignatelli/navix/commit/46b63678dced83ea87e367c8366df36e7785e3f2
# category: A
# expect: raises
# via: jit-call, helper, dataclass
# sink: python-if
"""The grid test resets an environment and asserts, inside the function it then also runs under
`jax.jit`, that the player and the key were not placed on the same cell; under jit the
`assert not jnp.array_equal(...)` needs the truth value of a traced comparison. The fix returns
the two positions from the function and asserts outside it."""
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass
class State:
    player_position: jax.Array
    key_positions: jax.Array


def random_positions(key, grid_shape, n, exclude=None):
    h, w = grid_shape
    cells = jnp.stack(jnp.meshgrid(jnp.arange(1, h - 1), jnp.arange(1, w - 1), indexing="ij"), -1).reshape(-1, 2)
    logits = jnp.zeros(cells.shape[0])
    if exclude is not None:
        logits = jnp.where(jnp.all(cells == exclude, -1), -jnp.inf, logits)
    idx = jax.random.categorical(key, logits, shape=(n,))
    return cells[idx]


def reset(key, grid_shape=(5, 5)):
    k1, k2 = jax.random.split(key)
    player = random_positions(k1, grid_shape, 1)[0]
    keys = random_positions(k2, grid_shape, 1, exclude=player)
    return State(player_position=player, key_positions=keys)


def test_random_positions():
    def f():
        state = reset(jax.random.PRNGKey(7))
        assert not jnp.array_equal(state.player_position, state.key_positions[0])  # <-- bug

    f()
    jax.jit(f)()


if __name__ == "__main__":
    test_random_positions()
    print("ok")
