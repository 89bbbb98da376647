"""Test dependencies that a local run may lack, but CI must have.

Locally a missing JAX skips the tests that run it; with ``CI=true`` (set by CI services) it is
an error, so that a broken CI image cannot turn the oracle and dynamic tests into skips.
"""

import importlib
import os

import pytest


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def require(module: str):
    """Import ``module``; skip the test module when it is missing, except in CI."""
    if in_ci():
        return importlib.import_module(module)
    return pytest.importorskip(module)
