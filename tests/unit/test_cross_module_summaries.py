"""The per-file pass summarises each module it analyses while it has the tree, and hands the
summary to the cross-module phase with the call records: the phase's lookups (re-exports,
classes, members along bases) never parse a module just to summarise it.  In ``solver_pkg``
the lookups read ``metrics`` and ``schedule``, which re-exports ``metrics.rms``."""

from __future__ import annotations

import os
import shutil

from clirun import ROOT
from jaxlint.analysis.xmod import summaries
from jaxlint.engine import pipeline  # noqa: F401 - imported first: the per-file pass keeps its own summarise, not the one patched below
from fixture_units import rule_config
from jaxlint.engine.run import lint_files


def _summarised_by_the_phase(tmp_path, monkeypatch, cache_dir=None):
    """(basenames of the modules the phase summarised itself, the run's findings)."""
    pkg = tmp_path / "solver_pkg"
    if not pkg.exists():
        shutil.copytree(os.path.join(ROOT, "fixtures", "solver_pkg"), pkg)
    summarised = []
    summarise = summaries.summarise

    def tracked(analysis, path, digest):
        summarised.append(os.path.basename(path))
        return summarise(analysis, path, digest)

    monkeypatch.setattr(summaries, "summarise", tracked)
    found = lint_files([str(pkg)], rule_config(), jobs=1, cache_dir=cache_dir, display=lambda p: os.path.relpath(p, tmp_path))
    monkeypatch.undo()
    return summarised, [(f.path, f.line, f.code) for f in found.findings]


def test_the_phase_reads_the_summaries_of_the_per_file_pass(tmp_path, monkeypatch):
    summarised, found = _summarised_by_the_phase(tmp_path, monkeypatch)
    # rms, reached through the re-export, is still followed and its finding reported
    assert ("solver_pkg/metrics.py", 13, "JAX104") in found
    assert summarised == []


def test_an_edited_module_is_summarised_by_its_own_lint_and_the_others_come_from_the_cache(tmp_path, monkeypatch):
    cache = str(tmp_path / "cache")
    _, cold = _summarised_by_the_phase(tmp_path, monkeypatch, cache)
    metrics = tmp_path / "solver_pkg" / "metrics.py"
    metrics.write_text(metrics.read_text() + "# edited\n")
    summarised, found = _summarised_by_the_phase(tmp_path, monkeypatch, cache)
    assert found == cold
    assert summarised == []
