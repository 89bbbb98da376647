"""The NumPy tables in the package are NumPy's own answers (scripts/numpy_tables.py)."""

import os
import sys

import pytest

np = pytest.importorskip("numpy")

from clirun import ROOT  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "scripts"))

import numpy_tables  # noqa: E402

from jaxlint.analysis.jax.numpy_array_makers import NUMPY_ARRAY_MAKERS, NUMPY_VERSION  # noqa: E402


def test_the_table_is_numpys_own_answer():
    version, makers = numpy_tables.array_makers()
    # every function listed returns a NumPy array in the NumPy installed here
    assert {n for n in NUMPY_ARRAY_MAKERS if hasattr(np, n)} - set(makers) == set()
    assert {"zeros", "indices", "cumsum", "tile", "linspace"} <= NUMPY_ARRAY_MAKERS
    assert not {"sum", "exp", "mean", "where"} & NUMPY_ARRAY_MAKERS
    # and with the release the table was written from, nothing is missing from it
    # (another release may add functions: scripts/numpy_tables.py writes the table again)
    if version == NUMPY_VERSION:
        assert sorted(NUMPY_ARRAY_MAKERS) == makers
