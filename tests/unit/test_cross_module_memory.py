"""The cross-module phase holds the tree of the module it interprets, not of every module a
lookup passed through: ``schedule.root_mean_square`` is a re-export of ``metrics.rms``, so
following it reads ``schedule`` (a summary) and interprets ``metrics`` alone."""

from __future__ import annotations

import gc
import os
import shutil
import weakref

from clirun import ROOT
from fixture_units import rule_config
from jaxlint.engine import cross_module
from jaxlint.engine.pipeline import read_and_lint
from jaxlint.rules import rules_for


def test_a_module_read_through_a_reexport_is_not_held_while_the_target_is_followed(tmp_path, monkeypatch):
    pkg = tmp_path / "solver_pkg"
    shutil.copytree(os.path.join(ROOT, "fixtures", "solver_pkg"), pkg)
    files = sorted((str(p), os.path.relpath(p, tmp_path)) for p in pkg.glob("*.py"))
    rules = rules_for(rule_config())
    alive = weakref.WeakSet()
    held = []  # (module followed, basenames of the modules whose trees are alive then)
    init, follow = cross_module._Target.__init__, cross_module._Target.follow

    def tracked(self, *args):
        init(self, *args)
        alive.add(self)

    def following(self, *args, **kwargs):
        gc.collect()  # what the phase let go of is gone; what it still holds is not
        held.append((os.path.basename(self.path), sorted(os.path.basename(t.path) for t in alive)))
        return follow(self, *args, **kwargs)

    monkeypatch.setattr(cross_module._Target, "__init__", tracked)
    monkeypatch.setattr(cross_module._Target, "follow", following)
    calls, own = {}, []
    for path, display in files:
        result = read_and_lint(path, display, rule_config(), rules)
        own += result.findings
        calls[display] = result.calls
    found = cross_module.cross_module_findings(files, calls, own, rule_config(), rules)
    # rms, reached through the re-export, is still followed and its finding reported
    assert ("solver_pkg/metrics.py", 13, "JAX104") in [(f.path, f.line, f.code) for f in found]
    assert ("metrics.py", ["metrics.py"]) in held
    assert all(alive_then == [module] for module, alive_then in held), held
