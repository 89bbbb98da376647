"""A value whose structure the code does not show (a library function's parameter, handed to a
lax loop as its carry) may be one array or a pytree container: its bare truth is Python's
(a dict's emptiness) or a tracer's, and nothing tells which.  A leaf computed from it is an
array all the same."""

import textwrap

from fixture_units import rule_config
from jaxlint import lint_source


def found(src, code):
    src = "import jax\nimport jax.numpy as jnp\n" + textwrap.dedent(src)
    return [f.line for f in lint_source(src, "m.py", rule_config()).findings if f.code == code]


MARCH = """
def march(u0, history0):
    def step(carry, _):
        u, history = carry
        if {test}:
            u = u + 1.0
        return (u, history), u

    return jax.lax.scan(step, (u0, history0), None, length=3)
"""


def test_truth_of_a_carry_whose_init_is_not_shown_is_not_taken_for_an_array():
    assert found(MARCH.format(test="history"), "JAX101") == []


def test_a_reduction_of_that_carry_is_an_array():
    assert found(MARCH.format(test="jnp.sum(u) > 0"), "JAX101") == [7]
