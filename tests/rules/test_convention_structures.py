"""JAX403 when the two calls pass arguments of different pytree structures: ``None`` at one
and a value that cannot be None at the other compile separately however they are passed, so
the change of convention costs nothing more."""

import textwrap

from fixture_units import rule_config
from jaxlint import lint_source


def found(src):
    src = "import jax\nimport jax.numpy as jnp\n" + textwrap.dedent(src)
    return [f.line for f in lint_source(src, "m.py", rule_config()).findings if f.code == "JAX403"]


LAYER = """
@jax.jit
def layer(tau, mu0=None):
    return tau if mu0 is None else tau / mu0


def longwave(tau):
    return layer(tau, mu0=None)


def shortwave(tau, {param}):
    return layer(tau, cos_zenith)
"""


def test_none_at_one_call_and_a_float_at_the_other():
    assert found(LAYER.format(param="cos_zenith: float")) == []


def test_none_at_one_call_and_a_name_that_may_hold_none():
    assert found(LAYER.format(param="cos_zenith")) == [14]


def test_none_at_one_call_and_an_optional_float():
    assert found(LAYER.format(param="cos_zenith: Optional[float] = None").replace("import jax\n", "from typing import Optional\nimport jax\n")) == [14]
