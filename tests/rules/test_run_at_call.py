"""A library call that runs the function it is given right where it is called: NumPyro's
``log_density(model, model_args, model_kwargs, params)`` runs ``model(*model_args,
**model_kwargs)`` under its effect handlers (numpyro/infer/util.py), so under ``jax.jit`` the
model's body is traced, and a ``jnp`` value computed there from the concrete data is a tracer.
NumPyro is not a dependency of the fixtures, so this is checked on sources alone."""

import textwrap

from fixture_units import rule_config
from jaxlint import lint_source

SOURCE = """
import jax
import jax.numpy as jnp
import numpy as np
from numpyro.infer.util import log_density

COUNTS = np.array([3, 1, 4, 1, 5])


def model(counts, scale=1.0):
    n = int({size}) + 1
    return jnp.zeros(n) * scale


@jax.jit
def log_joint(params):
    return log_density(model, (COUNTS,), {{"scale": 2.0}}, params)[0]
"""


def found(size):
    src = textwrap.dedent(SOURCE.format(size=size))
    return [(f.line, f.code) for f in lint_source(src, "m.py", rule_config()).findings]


def test_the_model_runs_in_the_trace_of_the_jitted_density():
    assert found("jnp.max(counts)") == [(11, "JAX104")]


def test_a_python_value_of_the_data_stays_concrete():
    assert found("np.max(counts)") == []
