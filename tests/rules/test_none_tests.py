"""``x is None`` / ``x is not None`` in traced code is decided when the value shows it cannot be
None (a NumPy array, a container, a string...): only the branch it takes is traced.  Each
source also runs under JAX: the flagged one raises, the other runs."""

import pytest

from source_cases import assert_marked, assert_runs_as

FACTORY = """
    import jax
    import jax.numpy as jnp
    import numpy as np


    def make_split(constant_sizes=None):
        def split(x, sizes):
            if constant_sizes is not None:
                cuts = np.cumsum(constant_sizes[:-1])
            else:
                cuts = jnp.cumsum(sizes[:-1])
            return jnp.split(x, cuts, axis=1){marker}

        return split

"""

CASES = {
    "sizes_given_as_a_numpy_array": (
        FACTORY.format(marker="")
        + """
    def run(a):
        split = make_split(constant_sizes=np.array([2, 2]))
        return split(a, jnp.stack([2, a.shape[1] - 2]))


    RESULT = jax.jit(run)(np.zeros((6, 4), np.float32))
    """,
        None,
    ),
    "sizes_left_to_the_traced_argument": (
        FACTORY.format(marker="  # error: JAX108")
        + """
    def run(a):
        split = make_split()
        return split(a, jnp.stack([2, a.shape[1] - 2]))


    RESULT = jax.jit(run)(np.zeros((6, 4), np.float32))
    """,
        ("ConcretizationTypeError", "Abstract tracer value"),
    ),
    "decided_in_a_conditional_expression": (
        """
    import jax
    import jax.numpy as jnp
    import numpy as np


    def make_split(constant_sizes=None):
        def split(x, sizes):
            cuts = np.cumsum(constant_sizes[:-1]) if constant_sizes is not None else jnp.cumsum(sizes[:-1])
            return jnp.split(x, cuts, axis=1)

        return split


    def run(a):
        split = make_split(np.array([2, 2]))
        return split(a, jnp.stack([2, a.shape[1] - 2]))


    RESULT = jax.jit(run)(np.zeros((6, 4), np.float32))
    """,
        None,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_findings(name):
    assert_marked(CASES[name][0], "JAX1")


@pytest.mark.parametrize("name", sorted(CASES))
def test_jax_agrees(name):
    assert_runs_as(*CASES[name])
