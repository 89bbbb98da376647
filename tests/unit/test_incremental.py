"""What a run after an edit, or over an unchanged tree, asks of the filesystem and the parser:
jaxlint's own files known by their stat, one pack of the cross-module phase's entries, the
trees of the files just linted interpreted again without a second parse, and folders walked
without a system call per file."""

from __future__ import annotations

import builtins
import os
import re
import shutil
import subprocess
import sys
import time

import pytest

from clirun import ROOT
from fixture_units import rule_config
from jaxlint.engine import cache as cache_mod
from jaxlint.engine import cross_module, discovery
from jaxlint.engine.run import lint_files

FIXTURES = os.path.join(ROOT, "fixtures")
AN_HOUR_AGO = time.time() - 3600


def age(root) -> None:
    """Every file under ``root`` written an hour ago: past the stat index's clock tick."""
    for folder, _dirs, names in os.walk(root):
        for name in names:
            os.utime(os.path.join(folder, name), (AN_HOUR_AGO, AN_HOUR_AGO))


class Opened:
    """The paths ``open`` is asked for while it watches."""

    def __init__(self, monkeypatch):
        self.paths = []
        real = builtins.open

        def watching(path, *args, **kwargs):
            self.paths.append(os.path.abspath(str(path)))
            return real(path, *args, **kwargs)

        monkeypatch.setattr(builtins, "open", watching)


def test_the_build_digest_knows_unchanged_sources_by_their_stat(tmp_path, monkeypatch):
    package = tmp_path / "package"
    (package / "engine").mkdir(parents=True)
    (package / "__pycache__").mkdir()
    (package / "a.py").write_text("A = 1\n")
    (package / "engine" / "b.py").write_text("B = 2\n")
    (package / "engine" / "cache.py").write_text("not in the build\n")
    (package / "__pycache__" / "c.py").write_text("never\n")
    age(package)
    read = cache_mod.sources_digest(str(package))
    index = cache_mod.StatIndex(str(tmp_path / "cache"))
    assert cache_mod.sources_digest(str(package), index) == read  # read, and recorded
    index.written_ns = time.time_ns()  # as a later run finds it
    opened = Opened(monkeypatch)
    assert cache_mod.sources_digest(str(package), index) == read
    assert opened.paths == []  # every file known by its stat
    # An edit of the same size is a new mtime: that file, and only it, is read again.
    (package / "engine" / "b.py").write_text("B = 3\n")
    assert cache_mod.sources_digest(str(package), index) != read
    assert opened.paths == [str(package / "engine" / "b.py")]


PROBE = """
import builtins, json, os, sys
root = os.path.abspath(sys.argv[1])
opened, real = [], builtins.open
def watching(path, *args, **kwargs):
    opened.append(os.path.abspath(str(path)))
    return real(path, *args, **kwargs)
builtins.open = watching
from jaxlint import cli
try:
    cli.main(sys.argv[2:])
except SystemExit:
    pass
print("\\nopened:", json.dumps([p for p in opened if p.startswith(root + os.sep)]))
"""


@pytest.mark.slow  # starts interpreters
def test_a_warm_run_reads_none_of_jaxlints_own_files(tmp_path):
    copy = tmp_path / "src" / "jaxlint"
    shutil.copytree(os.path.join(ROOT, "jaxlint"), copy, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(os.path.join(FIXTURES, "solver_pkg"), tmp_path / "solver_pkg")
    age(tmp_path)
    argv = ["--isolated", "--preview", "--cache-dir", str(tmp_path / "c"), "--format", "json", "--exit-zero", "solver_pkg"]

    def run():
        env = dict(os.environ, PYTHONPATH=str(tmp_path / "src"))
        p = subprocess.run([sys.executable, "-c", PROBE, str(copy), *argv], cwd=tmp_path, capture_output=True, text=True, env=env)
        out, _, opened = p.stdout.rpartition("\nopened: ")
        return out, opened.strip()

    cold, opened = run()
    assert str(copy / "rules" / "registry.py") in opened  # the first run reads them for the build digest
    warm, opened = run()
    assert (warm, opened) == (cold, "[]")


def test_the_phase_reads_its_entries_from_one_pack(tmp_path, monkeypatch):
    shutil.copytree(os.path.join(FIXTURES, "solver_pkg"), tmp_path / "solver_pkg")
    cdir = tmp_path / "cache"

    def run():
        return [f.to_dict() for f in lint_files([str(tmp_path / "solver_pkg")], rule_config(), jobs=1, cache_dir=str(cdir)).findings]

    cold = run()
    train = tmp_path / "solver_pkg" / "train.py"
    for k in range(2):  # the first edit's run writes the pack the second one reads
        with open(train, "a", encoding="utf-8") as fh:
            fh.write(f"\n# edited ({k})\n")  # the phase runs again: its work is answered by the cache
        opened = Opened(monkeypatch)
        assert run() == cold
        monkeypatch.undo()
    entries = [p for p in opened.paths if re.search(r"/[0-9a-f]{2}/[0-9a-f]{62}\.json$", p)]
    # Two misses, looked for in their own files: the edited module's findings and the run's
    # memo.  The summaries and the work of the phase come from its pack.
    assert len(entries) == 2
    assert [os.path.basename(p) for p in opened.paths if "cross-module-pack" in p]


def test_the_phase_interprets_the_trees_the_per_file_pass_parsed(tmp_path, monkeypatch):
    shutil.copytree(os.path.join(FIXTURES, "solver_pkg"), tmp_path / "solver_pkg")
    cdir = tmp_path / "cache"
    parsed, targets = [], []
    parse, init = cross_module.parse_module, cross_module._Target.__init__

    def counting_parse(text):
        parsed.append(text)
        return parse(text)

    def counting_init(self, path, *args):
        targets.append(os.path.basename(path))
        init(self, path, *args)

    monkeypatch.setattr(cross_module, "parse_module", counting_parse)
    monkeypatch.setattr(cross_module._Target, "__init__", counting_init)

    def run(cache=True):
        parsed.clear()
        targets.clear()
        found = lint_files([str(tmp_path / "solver_pkg")], rule_config(), jobs=1, cache_dir=str(cdir) if cache else None).findings
        return [f.to_dict() for f in found], len(parsed), sorted(targets)

    cold = run()
    metrics = tmp_path / "solver_pkg" / "metrics.py"
    metrics.write_text(metrics.read_text().replace("    if err < tol:  # error: JAX101\n", "    if False:\n"))
    edited, parses, read = run()
    # metrics.py, linted again, is interpreted twice (its own work, and schedule's re-export of
    # rms) from the tree its lint parsed; schedule.py, answered by the cache, is parsed.
    assert read == ["metrics.py", "metrics.py", "schedule.py"] and parses == 1
    assert edited == run(cache=False)[0] != cold[0]


def test_the_walk_asks_no_system_call_per_file_for_git_or_virtual_environments(tmp_path, monkeypatch):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    for k in range(20):
        (pkg / f"m{k}.py").write_text("import jax\n")
    (pkg / "sub" / "n.py").write_text("import jax\n")
    (pkg / "env").mkdir()
    (pkg / "env" / "pyvenv.cfg").write_text("home = /usr\n")
    (pkg / "env" / "site.py").write_text("import jax\n")
    (pkg / "notenv" / "pyvenv.cfg").mkdir(parents=True)  # a folder of that name is no marker
    (pkg / "notenv" / "kept.py").write_text("import jax\n")
    asked_git, looked_for_pyvenv, inside = [], [], []
    real_ignored, real_listing, real_stat = discovery.GitIgnored.ignored, discovery.GitIgnored.listing_of, os.stat

    def ignored(self, path, is_dir):
        asked_git.append(path)
        inside.append(path)  # what it asks in turn is not the walk's question
        try:
            return real_ignored(self, path, is_dir)
        finally:
            inside.pop()

    def listing_of(self, folder):
        if not inside:
            asked_git.append(folder)
        return real_listing(self, folder)

    def stat(path, *args, **kwargs):
        if str(path).endswith("pyvenv.cfg"):
            looked_for_pyvenv.append(path)
        return real_stat(path, *args, **kwargs)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(discovery.GitIgnored, "ignored", ignored)
    monkeypatch.setattr(discovery.GitIgnored, "listing_of", listing_of)
    monkeypatch.setattr(os, "stat", stat)
    found = discovery.discover(["pkg"], rule_config())
    assert sorted(os.path.relpath(f, "pkg") for f in found.files) == sorted(
        [f"m{k}.py" for k in range(20)] + [os.path.join("sub", "n.py"), os.path.join("notenv", "kept.py")]
    )
    # git is asked about absolute paths (a relative one costs a look for the working folder
    # each), once per folder: whether to walk it, and what of its files it lists (not once per
    # file); the virtual environment is known by its own listing
    folders = [str(tmp_path / "pkg" / d) for d in ("", "notenv", os.path.join("notenv", "pyvenv.cfg"), "sub")]
    assert sorted(asked_git) == sorted([folders[0]] + 2 * folders[1:]) and all(os.path.isabs(p) for p in asked_git)
    assert looked_for_pyvenv == []


def test_an_excluded_folder_that_cannot_be_read_is_not_reported(tmp_path, monkeypatch):
    (tmp_path / "pkg" / "node_modules").mkdir(parents=True)  # excluded by default
    (tmp_path / "pkg" / "locked").mkdir()
    (tmp_path / "pkg" / "m.py").write_text("import jax\n")
    real = os.scandir

    def scandir(path="."):
        if os.path.basename(str(path)) in ("node_modules", "locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "scandir", scandir)
    found = discovery.discover(["pkg"], rule_config())
    assert found.files == [os.path.join("pkg", "m.py")]
    assert found.errors == [f"{os.path.join('pkg', 'locked')}: cannot read folder: Permission denied"]


def test_an_entry_the_stat_index_led_to_and_missed_is_not_looked_for_again(tmp_path, monkeypatch):
    shutil.copytree(os.path.join(FIXTURES, "solver_pkg"), tmp_path / "solver_pkg")
    age(tmp_path / "solver_pkg")
    cdir = str(tmp_path / "cache")
    lint_files([str(tmp_path / "solver_pkg")], rule_config(), jobs=1, cache_dir=cdir)
    # Other settings: the index knows every file, and the cache has no entry for any of them.
    opened = Opened(monkeypatch)
    lint_files([str(tmp_path / "solver_pkg")], rule_config(), jobs=1, cache_dir=cdir, facts=True)
    looked_for = [p for p in opened.paths if re.search(r"/[0-9a-f]{2}/[0-9a-f]{62}\.json$", p)]
    assert looked_for and len(looked_for) == len(set(looked_for))


def test_a_run_over_files_the_stat_index_knows_unchanged_opens_one_entry(tmp_path, monkeypatch):
    shutil.copytree(os.path.join(FIXTURES, "solver_pkg"), tmp_path / "solver_pkg")
    shutil.copy(os.path.join(FIXTURES, "seed_chapter.py"), tmp_path / "seed_chapter.py")
    age(tmp_path)
    cdir = str(tmp_path / "cache")
    paths = [str(tmp_path / "solver_pkg"), str(tmp_path / "seed_chapter.py")]

    def run(**kw):
        return [f.to_dict() for f in lint_files(paths, rule_config(), jobs=1, cache_dir=cdir, **kw).findings]

    cold = run()
    assert cold == [f.to_dict() for f in lint_files(paths, rule_config(), jobs=1).findings]
    opened = Opened(monkeypatch)
    assert run() == cold
    monkeypatch.undo()
    # The stat index, then the run's entry: no linted file, no per-file entry, no pack.
    cache_files = [os.path.relpath(p, cdir) for p in opened.paths if p.startswith(cdir + os.sep)]
    assert cache_files[0] == "stat-index.json" and len(cache_files) == 2
    assert re.fullmatch(r"[0-9a-f]{2}/[0-9a-f]{62}\.json", cache_files[1])
    assert not [p for p in opened.paths if p.startswith(str(tmp_path / "solver_pkg"))]


def test_a_run_after_an_edit_stats_each_file_once(tmp_path, monkeypatch):
    shutil.copytree(os.path.join(FIXTURES, "solver_pkg"), tmp_path / "solver_pkg")
    age(tmp_path)
    cdir = str(tmp_path / "cache")
    package = str(tmp_path / "solver_pkg")
    lint_files([package], rule_config(), jobs=1, cache_dir=cdir)
    files = sorted(str(p) for p in (tmp_path / "solver_pkg").rglob("*.py"))
    edited = files[-1]
    with open(edited, "a", encoding="utf-8") as fh:
        fh.write("\nEDITED = 1\n")
    os.utime(edited, (AN_HOUR_AGO + 60, AN_HOUR_AGO + 60))
    stats = []
    real = os.stat

    def watching(path, *args, **kwargs):
        stats.append(os.path.abspath(str(path)))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", watching)
    lint_files([package], rule_config(), jobs=1, cache_dir=cdir)
    monkeypatch.undo()
    # the run's memo and the per-file pass ask one stat of each module between them (a
    # package's __init__.py is also looked for, once per folder, to name its modules)
    modules = [f for f in files if os.path.basename(f) != "__init__.py"]
    assert len(modules) >= 2
    assert {f: stats.count(f) for f in modules} == dict.fromkeys(modules, 1)
