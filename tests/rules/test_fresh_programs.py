"""JAX401 for a function that jits a closure and runs again and again: when every run that
repeats is given other values for what the closure reads (the loop around the call passes
its own variables, directly or through the callers' parameters), each run closes over other
data and jits a program of its own, as a lambda that reads the loop's variables does."""

import textwrap

from fixture_units import rule_config
from jaxlint import lint_source


def found(src):
    src = "import jax\nimport jax.numpy as jnp\n" + textwrap.dedent(src)
    return [f.line for f in lint_source(src, "m.py", rule_config()).findings if f.code == "JAX401"]


TRAIN = """
def train(data, epochs):
    mesh = jnp.asarray(data["mesh"])

    def loss(p):
        return ((p * mesh) ** 2).sum()

    @jax.jit
    def step(p):
        return p - 0.1 * jax.grad(loss)(p)

    p = jnp.ones(3)
    for _ in range(epochs):
        p = step(p)
    return p


def run_one(path, epochs):
    data = {{"mesh": jnp.ones(3) * len(path)}}
    return train(data, epochs)


def main(paths):
    for path in paths:
        {call}
"""


def test_each_run_given_another_file_through_a_caller():
    assert found(TRAIN.format(call="run_one(path, 10)")) == []


def test_each_run_given_the_same_file_is_still_found():
    assert found(TRAIN.format(call='run_one("fixed.npz", 10)')) == [10]


def test_loop_that_varies_only_what_the_closure_does_not_read_is_still_found():
    # `epochs` changes, but `step` does not read it: the same program, compiled again
    assert found(TRAIN.format(call='train({"mesh": jnp.ones(3)}, len(path))')) == [10]


def test_classmethod_given_each_configuration_of_a_loop():
    assert found(
        """
        class Budget:
            @classmethod
            def setup(cls, configs):
                return [cls.residual(jnp.ones(3) * c) for c in configs]

            @classmethod
            def residual(cls, model):
                step = jax.jit(lambda s: s * model)
                state = jnp.ones(3)
                for _ in range(3):
                    state = step(state)
                return state
        """
    ) == []
