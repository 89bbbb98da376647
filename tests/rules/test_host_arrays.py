"""Where host code holds a JAX array (JAX304 on ``x[i] = v``, JAX501 on a discarded result):
the host evaluator's answer, with every value a name is bound to in its scope.  A functional
update gives a JAX array whatever its receiver is; an array times a parameter is an array; a
name bound to a JAX array and to a NumPy array is not certainly either; a parameter rebound to
an array still holds, before that, what its caller passed.  Each source also runs under JAX."""

import pytest

from source_cases import assert_marked, assert_runs_as

CASES = {
    "store_into_a_functional_update_of_a_parameter": (
        """
        import jax.numpy as jnp


        def bump(v):
            w = v.at[0].add(1.0)
            w[1] = 0.0  # error: JAX304
            return w


        RESULT = bump(jnp.ones(3))
        """,
        ("TypeError", "immutable"),
    ),
    "store_into_a_host_copy": (
        """
        import jax.numpy as jnp
        import numpy as np


        def host_copy(values):
            buf = jnp.asarray(values)
            buf = np.array(buf)
            buf[0] = 0.0
            return buf


        RESULT = host_copy([1.0, 2.0])
        """,
        None,
    ),
    "store_into_a_parameter_that_may_be_numpy": (
        """
        import jax
        import numpy as np


        def zero_first(v):
            if isinstance(v, jax.Array):
                v = v.at[0].set(0.0)
            else:
                v[0] = 0.0
            return v


        RESULT = zero_first(np.ones(3))
        """,
        None,
    ),
    "discarded_cast_of_an_array_times_a_parameter": (
        """
        import jax.numpy as jnp


        def scaled(x):
            y = jnp.linspace(-1.0, 1.0, 4) * x
            y.astype(jnp.int32)  # error: JAX501
            return y


        RESULT = scaled(2.0)
        """,
        None,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_findings(name):
    assert_marked(CASES[name][0], "JAX304" if "store" in name else "JAX501")


@pytest.mark.parametrize("name", sorted(CASES))
def test_jax_agrees(name):
    assert_runs_as(*CASES[name])
