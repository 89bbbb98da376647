"""The runner: the same output for any --jobs, small runs in-process, the CLI wiring."""

from __future__ import annotations

import glob
import io
import os
import shutil
import sys

import pytest

from jaxlint import cli
from jaxlint.engine import runner
from fixture_units import rule_config
from jaxlint.config import Config

from clirun import ROOT
FIXTURES = os.path.join(ROOT, "fixtures")


@pytest.fixture
def tree(tmp_path):
    for f in sorted(glob.glob(os.path.join(FIXTURES, "*.py"))):
        shutil.copy(f, tmp_path / os.path.basename(f))
    (tmp_path / "plain.py").write_text("x = 1\n")
    (tmp_path / "broken.py").write_text("import jax\nif jax:\n")
    return tmp_path


@pytest.fixture
def small_tree(tmp_path):
    """A few fixtures, for the CLI wiring tests: what they check does not grow with the tree."""
    for name in ("seed_chapter.py", "static_args.py", "debug_prints.py"):
        shutil.copy(os.path.join(FIXTURES, name), tmp_path / name)
    (tmp_path / "plain.py").write_text("x = 1\n")
    (tmp_path / "broken.py").write_text("import jax\nif jax:\n")
    return tmp_path


def files_of(tree):
    return sorted(str(p) for p in tree.iterdir() if p.suffix == ".py")


def dicts(findings):
    return [f.to_dict() for f in findings]


@pytest.fixture
def always_pool(monkeypatch):
    """Make any run with jobs > 1 use the process pool, however small."""
    monkeypatch.setattr(runner, "POOL_MIN_FILES", 1)
    monkeypatch.setattr(runner, "POOL_MIN_BYTES", 0)


@pytest.mark.slow  # starts a worker pool
def test_jobs_do_not_change_results_or_their_order(tree, always_pool):
    files = files_of(tree)
    one = dicts(runner.lint_each(files, rule_config(), jobs=1).findings)
    assert len({f["path"] for f in one}) >= 3
    for jobs in (2, 7):  # as many workers as cores, and more workers than cores
        assert dicts(runner.lint_each(files, rule_config(), jobs=jobs).findings) == one
    # Findings come in the order of the files given, whoever finished first.
    rev = dicts(runner.lint_each(files[::-1], rule_config(), jobs=2).findings)
    order = []
    for f in rev:
        if f["path"] not in order:
            order.append(f["path"])
    assert order == [p for p in files[::-1] if p in order]


@pytest.mark.slow  # starts a worker pool
def test_pool_with_cache_equals_single_process(tree, tmp_path_factory, always_pool):
    files = files_of(tree)
    ref = dicts(runner.lint_each(files, rule_config(), jobs=1).findings)
    cdir = str(tmp_path_factory.mktemp("cache"))
    assert dicts(runner.lint_each(files, rule_config(), jobs=2, cache_dir=cdir).findings) == ref  # workers write
    assert len(glob.glob(os.path.join(cdir, "*", "*.json"))) == len(files)
    assert dicts(runner.lint_each(files, rule_config(), jobs=2, cache_dir=cdir).findings) == ref  # all hits


def test_a_handful_of_files_stays_in_process(tree, monkeypatch):
    def no_pool(*a, **kw):
        raise AssertionError("a pool was started for a handful of files")

    monkeypatch.setattr(runner, "_run_pool", no_pool)
    files = files_of(tree)[:3]
    assert runner.lint_each(files, rule_config(), jobs=4).findings == runner.lint_each(files, rule_config(), jobs=1).findings


@pytest.mark.slow  # starts a worker pool
def test_large_runs_use_the_pool(tree, monkeypatch):
    used = []
    real = runner._run_pool

    def spy(todo, *a, **kw):
        used.append(len(todo))
        return real(todo, *a, **kw)

    monkeypatch.setattr(runner, "_run_pool", spy)
    monkeypatch.setattr(runner, "POOL_MIN_BYTES", 0)
    files = files_of(tree)
    assert len(files) >= runner.POOL_MIN_FILES
    runner.lint_each(files, Config(), jobs=2).findings
    assert used == [len(files)]


def test_chunks_cover_every_file_once_largest_first():
    items = [(i, (i, b"x" * (i * 7 % 13), "p", None)) for i in range(50)]
    chunks = runner._chunks(items, 2)
    flat = [j for c in chunks for j, _ in c]
    assert sorted(flat) == list(range(50))
    sizes = [len(t[1]) for c in chunks for _, t in c]
    assert sizes == sorted(sizes, reverse=True)


def test_chunks_hold_about_the_same_bytes_and_the_largest_files_alone():
    sizes = [400_000, 300_000] + [2_000] * 2000  # two large modules among many small ones
    items = [(i, (i, b"x" * n, "p", None)) for i, n in enumerate(sizes)]
    chunks = runner._chunks(items, 12)
    budget = sum(sizes) // (12 * runner.CHUNKS_PER_WORKER)
    assert [len(c) for c in chunks[:2]] == [1, 1]
    for c in chunks:
        # a chunk ends with the file that takes it past the budget
        assert sum(len(t[1]) for _, t in c[:-1]) < budget
    assert max(len(c) for c in chunks) <= runner.CHUNK_MAX_FILES


def test_unreadable_and_missing_files_are_reported(tmp_path):
    missing = str(tmp_path / "gone.py")
    got = runner.lint_each([missing], Config(), jobs=1, cache_dir=str(tmp_path / "c")).findings
    assert [f.code for f in got] == ["JAX001"]


def run_cli(argv, monkeypatch, cwd):
    monkeypatch.chdir(cwd)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    code = cli.main(argv)
    return code, out.getvalue()


@pytest.mark.slow  # starts worker pools
def test_cli_output_is_byte_identical_for_any_jobs(tree, monkeypatch, always_pool):
    outs = set()
    for jobs in ("1", "2"):
        for extra in (["--no-cache"], []):
            code, out = run_cli(["--preview", "--format", "json", "-j", jobs, *extra, "."], monkeypatch, tree)
            assert code == 1
            outs.add(out)
    assert len(outs) == 1


def test_cli_cache_options(small_tree, tmp_path_factory, monkeypatch):
    tree = small_tree
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    run_cli(["-q", "--no-cache", "."], monkeypatch, tree)
    assert not (tree / ".jaxlint_cache").exists()
    run_cli(["-q", "--cache-dir", str(elsewhere / "cc"), "."], monkeypatch, tree)
    assert (elsewhere / "cc" / ".gitignore").exists()
    assert not (tree / ".jaxlint_cache").exists()
    code1, out1 = run_cli(["."], monkeypatch, tree)  # default: on, in the working folder
    assert (tree / ".jaxlint_cache" / ".gitignore").read_text().splitlines()[-1] == "*"
    code2, out2 = run_cli(["."], monkeypatch, tree)
    assert (code1, out1) == (code2, out2)
    # The cache folder itself is never linted.
    assert ".jaxlint_cache" not in out2


def test_cli_default_cache_sits_next_to_pyproject(small_tree, monkeypatch):
    tree = small_tree
    (tree / "pyproject.toml").write_text("[tool.jaxlint]\n")
    sub = tree / "sub"
    sub.mkdir()
    run_cli(["-q", ".."], monkeypatch, sub)
    assert (tree / ".jaxlint_cache").is_dir()
    assert not (sub / ".jaxlint_cache").exists()


def test_cli_stdin_among_files(small_tree, monkeypatch):
    tree = small_tree
    src = "import jax\n\n@jax.jit\ndef f(x):\n    while x > 0:\n        x = x - 1\n    return x\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(src.encode())))
    code, out = run_cli(["--no-cache", "--stdin-filename", "mod.py", "-"], monkeypatch, tree)
    assert code == 1 and "mod.py:5:" in out and "JAX102" in out
