"""Linting a module leaves no reference cycle that holds most of its tree: once its findings are
made, reference counting frees it, instead of the collector tracing every node."""

from __future__ import annotations

import gc
import os

from clirun import ROOT
from fixture_units import rule_config
from jaxlint.engine import module_analysis
from jaxlint.engine.pipeline import lint_source


def _left_for_the_collector(text: str) -> int:
    """Objects of one lint that only a collection frees (automatic collection off meanwhile)."""
    gc.collect()
    gc.disable()
    try:
        lint_source(text, "m.py", rule_config())  # every rule: none may keep the tree alive
        return gc.collect()
    finally:
        gc.enable()


def test_a_linted_module_is_freed_by_reference_counting(monkeypatch):
    with open(os.path.join(ROOT, "fixtures", "methods_traced.py"), encoding="utf-8") as fh:
        text = fh.read()
    left = _left_for_the_collector(text)
    # The same lint with the analysis kept whole: its cycles hold the whole tree.
    monkeypatch.setattr(module_analysis.ModuleAnalysis, "release", lambda self: None)
    held = _left_for_the_collector(text)
    assert held > 10_000
    assert left < held / 4
