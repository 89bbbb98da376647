"""scripts/new_rule.py scaffolds a rule that the registry finds, in a copy of the package."""

import os
import shutil
import subprocess
import sys

from clirun import ROOT
SCRIPT = os.path.join(ROOT, "scripts", "new_rule.py")


def _copy(tmp_path):
    shutil.copytree(os.path.join(ROOT, "jaxlint"), tmp_path / "jaxlint", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "fixtures").mkdir()
    shutil.copy(os.path.join(ROOT, "README.md"), tmp_path / "README.md")
    return tmp_path


def _run(root, *args):
    return subprocess.run([sys.executable, SCRIPT, *args, "--root", str(root)], capture_output=True, text=True)


def test_a_scaffolded_rule_is_registered_and_touches_three_files(tmp_path):
    root = _copy(tmp_path)
    before = set(p for p in root.rglob("*") if p.is_file())
    r = _run(root, "JAX110", "traced-thing", "traced_values")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["jaxlint/rules/traced_values/traced_thing.py", "fixtures/traced_thing.py", "README.md"]
    assert set(p for p in root.rglob("*") if p.is_file()) - before == {
        root / "jaxlint/rules/traced_values/traced_thing.py",
        root / "fixtures/traced_thing.py",
    }
    registry = subprocess.run(
        [sys.executable, "-c", "from jaxlint.rules import RULES_BY_CODE as R; r = R['JAX110']; print(r.name, r.status, r.__module__)"],
        capture_output=True,
        text=True,
        cwd=str(root),
        env=dict(os.environ, PYTHONPATH=str(root)),
    )
    assert registry.stdout.split() == ["traced-thing", "preview", "jaxlint.rules.traced_values.traced_thing"], registry.stderr
    readme = (root / "README.md").read_text()
    rows = [line.split(" | ")[0][2:] for line in readme.splitlines() if line.startswith("| JAX")]
    assert rows.index("JAX110") == rows.index("JAX108") + 1
    assert "# error: JAX110" in (root / "fixtures/traced_thing.py").read_text()


def test_a_code_or_file_that_exists_is_refused(tmp_path):
    root = _copy(tmp_path)
    r = _run(root, "JAX101", "traced-if-again", "traced_values")
    assert r.returncode != 0 and "already lists JAX101" in r.stderr
    r = _run(root, "JAX110", "traced-if", "traced_values")
    assert r.returncode != 0 and "exists already" in r.stderr
    assert _run(root, "JAX110", "x", "no_such_family").returncode != 0
