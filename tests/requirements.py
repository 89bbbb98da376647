"""Test dependencies that a local run may lack, but CI must have.

Locally a missing JAX skips the tests that run it; with ``CI=true`` (set by CI services) it is
an error, so that a broken CI image cannot turn the oracle and dynamic tests into skips.

The module is looked up when the test file is collected, and imported only when a test first
uses it: importing JAX takes seconds, which a run that deselects those tests (``-m "not slow"``)
should not pay.
"""

import importlib
import importlib.util
import os

import pytest


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


class _Deferred:
    """Stands for an installed module until an attribute of it is first read."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr):
        return getattr(importlib.import_module(self._name), attr)


def require(module: str):
    """``module``, imported on first use; skip the test module when it is not installed, except
    in CI, where that is an error."""
    if importlib.util.find_spec(module) is None:
        if in_ci():
            raise ModuleNotFoundError(f"No module named {module!r} (a test dependency: pip install -e '.[test]')")
        pytest.skip(f"could not import {module!r}", allow_module_level=True)
    return _Deferred(module)
