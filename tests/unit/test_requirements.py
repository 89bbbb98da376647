"""In CI a missing test dependency fails; locally it skips."""

import pytest

import requirements


def test_missing_module_skips_locally(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        requirements.require("jaxlint_no_such_module")


def test_missing_module_fails_in_ci(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(ImportError):
        requirements.require("jaxlint_no_such_module")


def test_present_module_is_returned(monkeypatch):
    monkeypatch.setenv("CI", "true")
    assert requirements.require("json").dumps([]) == "[]"
