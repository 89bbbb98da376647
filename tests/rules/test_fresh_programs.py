"""JAX401 for a function that jits a closure and runs again and again: when every run that
repeats is given other Python constants for what the closure reads (a loop over distinct
constants written out passes its variables, directly or through the callers' parameters),
each run bakes other constants into its program: a compilation per run is what the code asks
for.  Values computed from data (files, seeds) may repeat, or differ only as arrays an
argument would carry: those runs are still found."""

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
    for path in {paths}:
        {call}
"""


def test_each_run_given_other_constants_through_a_caller():
    assert found(TRAIN.format(paths='("coarse.npz", "fine.npz")', call="run_one(path, 10)")) == []


def test_each_run_given_values_computed_from_data_is_still_found():
    # the paths come from the caller: two of them may hold meshes of one shape
    assert found(TRAIN.format(paths="paths", call="run_one(path, 10)")) == [10]


def test_each_run_given_the_same_file_is_still_found():
    assert found(TRAIN.format(paths='("coarse.npz", "fine.npz")', call='run_one("fixed.npz", 10)')) == [10]


def test_loop_that_varies_only_what_the_closure_does_not_read_is_still_found():
    # `epochs` changes, but `step` does not read it: the same program, compiled again
    assert found(TRAIN.format(paths="(1, 2, 3)", call='train({"mesh": jnp.ones(3)}, path)')) == [10]


def test_classmethod_given_each_configuration_of_a_loop():
    assert found(
        """
        class Budget:
            @classmethod
            def setup(cls):
                return [cls.residual(jnp.ones(3) * c) for c in (0.5, 2.0)]

            @classmethod
            def residual(cls, model):
                step = jax.jit(lambda s: s * model)
                state = jnp.ones(3)
                for _ in range(3):
                    state = step(state)
                return state
        """
    ) == []
