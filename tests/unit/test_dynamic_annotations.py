"""Example arguments read from annotations (no JAX needed): jaxtyping dimension strings and
``jax.ShapeDtypeStruct`` defaults."""

import pytest

from jaxlint.dynamic.examples.params import jaxtyping_shape


@pytest.mark.parametrize(
    "texts,shapes",
    [
        (["b n", "n m"], [[3, 4], [4, 5]]),  # one name, one size; two names, two sizes
        (["n", "n+1", "2*n"], [[3], [4], [6]]),  # expressions of the names
        (["#b ... 4", "*batch b"], [[3, 4], [3]]),  # broadcastable, variadic: no dimension
        (["_ _x 2"], [[3, 3, 2]]),  # anonymous and unchecked dimensions: any size
        ([""], [[]]),  # a scalar
        (["n n//0"], [None]),  # what cannot be computed is not guessed
    ],
)
def test_jaxtyping_dimensions_are_consistent_across_parameters(texts, shapes):
    dims = {}
    assert [jaxtyping_shape(t, dims) for t in texts] == shapes
