"""The command line's output over packages whose modules call each other is the same bytes
cold, warm and after edits, for any ``--jobs``, with worker pools however small the run: each
run with the cache equals a run without it over the same tree."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from clirun import ROOT, env

pytestmark = pytest.mark.slow  # starts interpreters and worker pools

PACKAGES = ("solver_pkg", "factory_pkg", "robot_pkg", "terms_pkg")

# Worker pools for every run with --jobs above 1, for the files and for the cross-module phase.
DRIVER = """
import sys
from jaxlint.engine import cross_module, runner
runner.POOL_MIN_FILES, runner.POOL_MIN_BYTES, cross_module.POOL_MIN_GROUPS = 1, 0, 1
from jaxlint import cli
sys.exit(cli.main(sys.argv[1:]))
"""


@pytest.fixture
def project(tmp_path):
    for name in PACKAGES:
        shutil.copytree(os.path.join(ROOT, "fixtures", name), tmp_path / name)
    return tmp_path


def run(project, jobs, cache=None) -> bytes:
    where = ["--cache-dir", str(cache)] if cache else ["--no-cache"]
    argv = ["--preview", "--format", "json", "--exit-zero", "-j", str(jobs), *where, *PACKAGES]
    p = subprocess.run([sys.executable, "-c", DRIVER, *argv], cwd=project, capture_output=True, env=env(), timeout=300)
    assert p.returncode == 0, p.stderr.decode()
    return p.stdout


def edit(path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_cold_warm_and_edited_runs_give_the_bytes_of_a_run_without_cache(project, tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    first = run(project, 1)
    assert b"called with traced values" in first  # findings of the cross-module phase
    assert run(project, 2) == first
    assert run(project, 2, cache) == first  # cold
    assert run(project, 1, cache) == first  # warm
    assert run(project, 2, cache) == first
    metrics, train = project / "solver_pkg" / "metrics.py", project / "solver_pkg" / "train.py"
    edits = [
        (metrics, "1e-12), x)\n", "1e-12), x)\n\n# a comment at the end\n"),  # the same findings
        (metrics, "    if err < tol:  # error: JAX101\n", "    if False:\n"),  # one fewer, in a helper
        (train, '"""Jitted entry points', '"""Moved down a line.\n\nJitted entry points'),  # the caller moves
        (project / "factory_pkg" / "utils.py", "\n", "\n\n"),  # every line of a module moves
    ]
    outputs = [first]
    for path, old, new in edits:
        edit(path, old, new)
        fresh = run(project, 1)
        assert run(project, 2) == fresh
        for jobs in (1, 2, 1):  # after the edit, then warm
            assert run(project, jobs, cache) == fresh, (path.name, new, jobs)
        outputs.append(fresh)
    assert outputs[1] == outputs[0] and b"is_converged" in outputs[1] and b"is_converged" not in outputs[2]
