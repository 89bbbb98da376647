"""Lint every fixture and compare with the ``# error:`` markers written in it: exact (line, code)
pairs, and the column where a marker gives one.  A package folder is linted as one run, so
that helpers imported from its other modules are analysed (cross-module findings)."""

import os

import pytest

from fixture_units import ROOT, rule_config, units
from jaxlint.engine.run import lint_files
from markers import expected_markers

UNITS = units()


def test_there_are_fixtures():
    assert len(UNITS) >= 9
    assert any(len(files) > 1 for _, files in UNITS), "a package fixture for cross-module analysis"


@pytest.mark.parametrize("name,files", UNITS, ids=[u[0] for u in UNITS])
def test_fixture(name, files):
    findings = lint_files(files, rule_config(), jobs=1, display=lambda p: os.path.relpath(p, ROOT)).findings
    want, cols = set(), {}
    for f in files:
        with open(f, encoding="utf-8") as fh:
            w, c = expected_markers(fh.read())
        rel = os.path.relpath(f, ROOT)
        want |= {(rel, line, code) for line, code in w}
        cols.update({(rel, line, code): col for (line, code), col in c.items()})
    got = {(f.path, f.line, f.code) for f in findings}
    assert got == want, f"missing {sorted(want - got)}; unexpected {sorted(got - want)}"
    by_key = {(f.path, f.line, f.code): f.column for f in findings}
    for key, col in cols.items():
        assert by_key[key] == col, f"{key}: column {by_key[key]} != {col}"
