"""The NumPy tables in the package are NumPy's own answers (scripts/numpy_tables.py)."""

import os
import sys

import pytest

np = pytest.importorskip("numpy")

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

import numpy_tables  # noqa: E402

from jaxlint.analysis.jax.numpy_array_makers import NUMPY_ARRAY_MAKERS, NUMPY_VERSION  # noqa: E402


def test_every_listed_function_returns_a_numpy_array_in_the_installed_numpy():
    _version, makers = numpy_tables.array_makers()
    present = {n for n in NUMPY_ARRAY_MAKERS if hasattr(np, n)}
    assert present - set(makers) == set()
    assert {"zeros", "indices", "cumsum", "tile", "linspace"} <= NUMPY_ARRAY_MAKERS
    assert not {"sum", "exp", "mean", "where"} & NUMPY_ARRAY_MAKERS


def test_the_table_is_what_its_numpy_release_gives():
    version, makers = numpy_tables.array_makers()
    if version == NUMPY_VERSION:
        assert sorted(NUMPY_ARRAY_MAKERS) == makers
    else:
        # another NumPy release: what it adds is reported, what the table has must still hold
        assert {n for n in NUMPY_ARRAY_MAKERS if hasattr(np, n)} <= set(makers)
