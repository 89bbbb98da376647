"""JAX304 on stores into a value a jitted function hands to a helper: the helper's parameter
holds whatever the caller passed, a pytree of unknown structure when the caller's own
parameter was one.  A store under a key (a dict's) is no in-place array update; a store under
an index only an array takes is one.  Each source also runs under JAX."""

import pytest

from source_cases import assert_marked, assert_runs_as

CASES = {
    "dict_filled_by_a_helper": (
        """
        import jax
        import jax.numpy as jnp


        def record(metrics, key, value):
            metrics[key] = value


        @jax.jit
        def step(metrics, x):
            record(metrics, "loss", jnp.sum(x))
            return metrics


        RESULT = step({"seen": jnp.zeros(())}, jnp.ones(3))
        """,
        None,
    ),
    "array_row_set_by_a_helper": (
        """
        import jax
        import jax.numpy as jnp


        def zero_first(rows):
            rows[0] = 0.0  # error: JAX304


        @jax.jit
        def step(x):
            zero_first(x)
            return x


        RESULT = step(jnp.ones(3))
        """,
        ("TypeError", "immutable"),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_findings(name):
    assert_marked(CASES[name][0], "JAX304")


@pytest.mark.parametrize("name", sorted(CASES))
def test_jax_agrees(name):
    assert_runs_as(*CASES[name])
