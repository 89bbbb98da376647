"""Lint every fixture and compare with the ``# error:`` markers written in it: exact (line, code)
pairs, and the column where a marker gives one."""

import glob
import os

import pytest

from jaxlint.config import Config
from jaxlint.engine import read_and_lint
from markers import actual, describe, expected_markers

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = sorted(glob.glob(os.path.join(ROOT, "fixtures", "**", "*.py"), recursive=True))


def test_there_are_fixtures():
    assert len(FIXTURES) >= 8


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: os.path.relpath(p, ROOT))
def test_fixture(path):
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    findings = read_and_lint(path, os.path.relpath(path, ROOT), Config())
    want, cols = expected_markers(text)
    got = actual(findings)
    assert got == want, f"missing {describe(want - got)}; unexpected {describe(got - want, findings)}"
    by_key = {(f.line, f.code): f.column for f in findings}
    for key, col in cols.items():
        assert by_key[key] == col, f"{key}: column {by_key[key]} != {col}"
