"""The optax table in the package is optax's own answer (scripts/optax_tables.py)."""

import os
import sys

import pytest

optax = pytest.importorskip("optax")

from clirun import ROOT  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "scripts"))

import optax_tables  # noqa: E402

from jaxlint.analysis.jax.optax_transforms import OPTAX_RECORDS, OPTAX_TRANSFORMS, OPTAX_VERSION  # noqa: E402

SAMPLE = ["adam", "nadam", "sgd", "sign_sgd", "chain", "clip_by_global_norm"]


def test_a_sample_of_the_table_is_optaxs_own_answer():
    version, derived = optax_tables.transforms(SAMPLE)
    assert set(derived) == set(SAMPLE)
    # facts that hold in every optax release the package supports
    assert derived["adam"][0] and derived["nadam"][0]
    assert derived["sgd"] == (False, ("momentum",))
    assert not derived["sign_sgd"][0] and not derived["chain"][0]
    # and with the release the table was written from, the sample is the table's
    if version == OPTAX_VERSION:
        assert {n: OPTAX_TRANSFORMS[n] for n in SAMPLE} == derived


def test_the_named_tuples_of_functions_are_optaxs_own():
    records = optax_tables.records()
    assert records["GradientTransformation"] == ("init", "update")
    assert "ScaleByAdamState" not in records  # its fields hold arrays
    if optax.__version__ == OPTAX_VERSION:
        assert records == OPTAX_RECORDS
