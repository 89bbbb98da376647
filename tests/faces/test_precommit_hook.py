"""The pre-commit hook, driven through the real ``pre-commit`` in temporary git repositories.

pre-commit installs the hook from a git repository at a commit.  ``pre-commit try-repo`` on a
local checkout with uncommitted changes builds a shadow commit from *tracked* files only
(staged files and ``git add -u``), so new untracked modules would be missing from the hook.  The
tests therefore commit a snapshot of exactly what ``pip install .`` needs from this working tree
(pyproject.toml, README.md, .pre-commit-hooks.yaml, jaxlint/) into a fresh repository and point
pre-commit at that: the result is the same in a fresh CI clone and in a work tree mid-edit.

Installing the hook environment downloads libcst (and the build backend) from the package
index: the only network use of the test suite.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import pytest
import yaml

from clirun import ROOT, commit_all, env, git, init_repo

# Runs pre-commit on temporary git repositories.
pytestmark = pytest.mark.slow

TIMEOUT = 900  # creating a virtualenv and installing libcst can be slow on a cold cache

BAD = """\
import jax


@jax.jit
def halve(x):
    while x > 1:
        x = x / 2
    return x
"""

GOOD = """\
import jax
import jax.numpy as jnp


@jax.jit
def relu(x):
    return jnp.where(x > 0, x, 0.0 * x)
"""


def _snapshot(dest: str) -> str:
    os.makedirs(dest)
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "LICENSE"):
        if os.path.exists(os.path.join(ROOT, name)):
            shutil.copy2(os.path.join(ROOT, name), dest)
    shutil.copytree(
        os.path.join(ROOT, "jaxlint"),
        os.path.join(dest, "jaxlint"),
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"),
    )
    init_repo(dest)
    commit_all(dest, "snapshot")
    return git(["rev-parse", "HEAD"], cwd=dest).stdout.decode().strip()


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    base = tmp_path_factory.mktemp("precommit")
    hook_repo = str(base / "jaxlint-hook")
    rev = _snapshot(hook_repo)
    project = str(base / "project")
    os.makedirs(project)
    init_repo(project)
    with open(os.path.join(project, "bad.py"), "w") as fh:
        fh.write(BAD)
    with open(os.path.join(project, "good.py"), "w") as fh:
        fh.write(GOOD)
    with open(os.path.join(project, "notes.txt"), "w") as fh:
        fh.write("jax is great: not Python, so never passed to the hook\n")
    with open(os.path.join(project, ".pre-commit-config.yaml"), "w") as fh:
        fh.write(f"repos:\n  - repo: {hook_repo}\n    rev: {rev}\n    hooks:\n      - id: jaxlint\n")
    commit_all(project, "project")
    return {"hook_repo": hook_repo, "rev": rev, "project": project, "home": str(base / "pre-commit-home")}


def pre_commit(args, setup) -> subprocess.CompletedProcess:
    e = env(
        PRE_COMMIT_HOME=setup["home"],
        PRE_COMMIT_COLOR="never",
        GIT_AUTHOR_NAME="Test",
        GIT_AUTHOR_EMAIL="test@example.com",
        GIT_COMMITTER_NAME="Test",
        GIT_COMMITTER_EMAIL="test@example.com",
    )
    # The hook must not see this checkout on its path: it runs from its own environment.
    e.pop("PYTHONPATH", None)
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=setup["project"],
        capture_output=True,
        env=e,
        timeout=TIMEOUT,
    )


def test_manifest():
    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml")) as fh:
        (hook,) = yaml.safe_load(fh)
    assert hook["id"] == "jaxlint"
    # In the entry, not in args: a user's `args:` replaces the manifest's.
    assert hook["entry"] == "jaxlint --force-exclude --package-context --output-format concise"
    # One process per hook run: parallel batches would split a package across processes.
    assert hook["require_serial"] is True
    assert hook["language"] == "python"
    assert hook["types_or"] == ["python", "pyi"]
    assert "additional_dependencies" not in hook


def test_try_repo_fails_on_a_finding_and_prints_it(setup):
    # try-repo builds its hook environment afresh for each call: one call here; that a clean
    # file passes is checked through the committed configuration below.
    p = pre_commit(["try-repo", setup["hook_repo"], "jaxlint", "--files", "bad.py", "good.py", "notes.txt"], setup)
    out = p.stdout.decode()
    assert p.returncode == 1, out + p.stderr.decode()
    assert "jaxlint" in out and "Failed" in out
    assert "bad.py:6:11: JAX102 Python `while` condition depends on traced value `x` in jitted halve()" in out
    assert "good.py:" not in out
    assert "notes.txt" not in out


def test_run_with_committed_config_and_core_only_environment(setup):
    p = pre_commit(["run", "--all-files"], setup)
    out = p.stdout.decode()
    assert p.returncode == 1, out + p.stderr.decode()
    assert "bad.py:6:11: JAX102" in out
    assert "good.py:" not in out
    assert "notes.txt" not in out  # not Python: pre-commit never passes it (it would be a JAX001)

    # The hook environment holds the core only: libcst, never jax.
    envs = []
    for dirpath, dirnames, _ in os.walk(setup["home"]):
        for d in dirnames:
            if d.startswith("py_env-"):
                envs.append(os.path.join(dirpath, d))
    assert len(envs) == 1, envs
    py = os.path.join(envs[0], "Scripts" if os.name == "nt" else "bin", "python")
    clean = env()
    clean.pop("PYTHONPATH", None)
    listing = subprocess.run(
        [py, "-m", "pip", "list", "--format=freeze"], capture_output=True, timeout=120, env=clean
    ).stdout.decode()
    names = {line.split("==")[0].lower() for line in listing.splitlines()}
    assert "libcst" in names and "jaxlint" in names
    assert not names & {"jax", "jaxlib", "numpy"}

    # A clean file alone passes.
    p = pre_commit(["run", "--files", "good.py", "notes.txt"], setup)
    assert p.returncode == 0, p.stdout.decode() + p.stderr.decode()
    assert "jaxlint" in p.stdout.decode() and "Passed" in p.stdout.decode()

    # Fixing the code makes the hook pass.
    with open(os.path.join(setup["project"], "bad.py"), "w") as fh:
        fh.write(textwrap.dedent(GOOD))
    p = pre_commit(["run", "--all-files"], setup)
    assert p.returncode == 0, p.stdout.decode() + p.stderr.decode()
    assert "Passed" in p.stdout.decode()


def test_monorepo_with_nested_configurations_agrees_with_jaxlint_dot(setup, tmp_path):
    import re

    from clirun import jaxlint

    mono = tmp_path / "mono"
    files = {
        "pyproject.toml": '[tool.jaxlint]\nextend-exclude = ["gen/*"]\n',
        "top.py": BAD,
        "gen/generated.py": BAD,
        # Its own configuration, with globs relative to its folder.
        "services/a/pyproject.toml": '[tool.jaxlint]\nselect = ["JAX3"]\n\n[tool.jaxlint.per-file-ignores]\n"legacy/*" = ["JAX3"]\n',
        "services/a/model.py": BAD.replace("    return x\n", "    print(x)\n    return x\n"),
        "services/a/legacy/old.py": BAD.replace("    return x\n", "    print(x)\n    return x\n"),
        # A pyproject.toml without [tool.jaxlint]: the root configuration still applies.
        "services/b/pyproject.toml": '[project]\nname = "b"\n',
        "services/b/gen/kept.py": BAD,
        "services/b/env/cartpole.py": BAD,
    }
    for name, text in files.items():
        (mono / name).parent.mkdir(parents=True, exist_ok=True)
        (mono / name).write_text(text)
    init_repo(str(mono))
    (mono / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {setup['hook_repo']}\n    rev: {setup['rev']}\n    hooks:\n      - id: jaxlint\n"
    )
    commit_all(str(mono), "mono")
    finding = re.compile(r"^(\S+\.py):(\d+):\d+: (JAX\d{3}) ", re.M)
    p = pre_commit(["run", "--all-files"], {**setup, "project": str(mono)})
    via_hook = sorted(finding.findall(p.stdout.decode()))
    direct = jaxlint(["--no-cache", "--output-format", "concise", "."], cwd=str(mono))
    via_cli = sorted(finding.findall(direct.stdout.decode()))
    assert via_hook == via_cli, p.stdout.decode()
    assert via_cli == [
        ("services/a/model.py", "8", "JAX302"),
        ("services/b/env/cartpole.py", "6", "JAX102"),
        ("services/b/gen/kept.py", "6", "JAX102"),
        ("top.py", "6", "JAX102"),
    ]


def _copy_fixture_packages(dest) -> None:
    for name in ("solver_pkg", "robot_pkg", "factory_pkg"):
        shutil.copytree(
            os.path.join(ROOT, "fixtures", name),
            os.path.join(str(dest), name),
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
        )


def test_hook_finds_what_jaxlint_pkg_finds_across_modules(setup, tmp_path):
    """Packages whose findings land in another module than their jitted entry point: the hook
    (pre-commit would split 11 files into parallel batches) reports exactly what one
    `jaxlint .` run reports, and a commit that stages only the helper module still gets the
    helper's findings, which come from the entry point in a module that is not staged."""
    import re

    from clirun import jaxlint

    repo = tmp_path / "pkgs"
    repo.mkdir()
    _copy_fixture_packages(repo)
    init_repo(str(repo))
    # The packages' findings are mostly preview rules' (JAX101, JAX104, JAX202): the hook gets
    # --preview through its args, as a user turns preview on there.
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {setup['hook_repo']}\n    rev: {setup['rev']}\n    hooks:\n      - id: jaxlint\n        args: [--preview]\n"
    )
    commit_all(str(repo), "packages")
    finding = re.compile(r"^(\S+\.py):(\d+):(\d+): (JAX\d{3}) ", re.M)
    run = {**setup, "project": str(repo)}

    p = pre_commit(["run", "--all-files"], run)
    via_hook = sorted(finding.findall(p.stdout.decode()))
    direct = jaxlint(["--no-cache", "--preview", "--output-format", "concise", "."], cwd=str(repo))
    via_cli = sorted(finding.findall(direct.stdout.decode()))
    assert p.returncode == 1, p.stdout.decode() + p.stderr.decode()
    assert via_hook == via_cli, p.stdout.decode()
    # Every one of these is found only across modules (the jitted caller is in train.py).
    assert ("solver_pkg/metrics.py", "7", "8", "JAX101") in via_cli
    assert ("solver_pkg/schedule.py", "9", "12", "JAX103") in via_cli
    assert ("robot_pkg/base.py", "22", "12", "JAX101") in via_cli
    assert ("factory_pkg/utils.py", "26", "27", "JAX202") in via_cli
    assert len(via_cli) == 16

    # Only the helper module is named (as in a commit that changes only it).
    p = pre_commit(["run", "--files", "solver_pkg/metrics.py"], run)
    assert p.returncode == 1, p.stdout.decode() + p.stderr.decode()
    assert sorted(finding.findall(p.stdout.decode())) == [
        ("solver_pkg/metrics.py", "13", "12", "JAX104"),
        ("solver_pkg/metrics.py", "7", "8", "JAX101"),
    ]
