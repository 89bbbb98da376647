"""The first state of a host loop as the host evaluator reads it (JAX402): through a method, a
``__main__`` block (never run by the fixture oracle), and paths that disagree on a leaf's type."""

import textwrap

from fixture_units import rule_config
from jaxlint import lint_source

HEADER = """\
import flax
import jax
import jax.numpy as jnp


@flax.struct.dataclass
class State:
    steps: jax.Array
    score: jax.Array


class Game:
    def reset(self):
        return State(steps=0, score=0.0)

    def reset_from(self, start):
        return State(steps=0, score=start)

    def step(self, state, reward):
        return State(steps=state.steps + 1, score=state.score + jnp.sum(reward))
"""


def findings(body):
    text = HEADER + textwrap.dedent(body)
    return [(f.line, f.code) for f in lint_source(text, "example.py", rule_config()).findings if f.code == "JAX402"]


def line_of(body, marker):
    text = HEADER + textwrap.dedent(body)
    return next(i for i, line in enumerate(text.splitlines(), 1) if marker in line)


def test_main_block_state_from_a_method():
    body = """
    if __name__ == "__main__":
        game = Game()
        state = game.reset()
        step = jax.jit(game.step)
        for _ in range(3):
            state = step(state, jnp.ones(2))  # here
    """
    assert findings(body) == [(line_of(body, "# here"), "JAX402")]


def test_parameter_leaf_is_not_known():
    # ``score`` is whatever the caller of reset passes: the method's result leaves it unknown
    body = """
    def run(start):
        game = Game()
        state = game.reset_from(start)
        step = jax.jit(game.step)
        for _ in range(3):
            state = step(state, jnp.ones(2))
    """
    assert findings(body) == []


def test_typed_start_compiles_once():
    body = """
    if __name__ == "__main__":
        game = Game()
        state = game.reset_from(jnp.zeros((), jnp.float32))
        step = jax.jit(game.step)
        for _ in range(3):
            state = step(state, jnp.ones(2))
    """
    assert findings(body) == []


def test_a_gradient_is_not_typed_as_the_body_returns():
    # jax.jit(jax.grad(f)) returns the gradient, whose weak type follows the computation (weak
    # when every operand of the loss is weak, strong when an array is strong): not the loss's
    # own return, so the carried value's next type is left unknown
    body = """
    def loss(w, scale):
        return jnp.sum(w * scale)

    grad_step = jax.jit(jax.grad(loss))
    g = jax.grad(loss)
    named_step = jax.jit(g)

    if __name__ == "__main__":
        w = 0.5
        v = 0.5
        for _ in range(3):
            w = grad_step(w, 0.75)
            v = named_step(v, 0.75)
    """
    assert findings(body) == []
