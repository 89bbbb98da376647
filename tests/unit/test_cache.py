"""The result cache: never changes results, survives corruption and concurrent writers."""

from __future__ import annotations

import glob
import json
import multiprocessing as mp
import os
import time
import shutil

import pytest

from jaxlint.engine import cache as cache_mod
from jaxlint.engine import pipeline, runner
from jaxlint.engine.cache import Cache, entry_key
from fixture_units import rule_config
from jaxlint.config import Config
from jaxlint.findings import Finding

from clirun import ROOT
FIXTURES = os.path.join(ROOT, "fixtures")

EXTRA = {
    "plain.py": "print('no jax in here')\n",
    "broken.py": "import jax\ndef f(:\n",
    "edited.py": "import jax\n\n@jax.jit\ndef f(x):\n    return x + 1\n",
}


@pytest.fixture
def tree(tmp_path):
    """A few real fixtures (full of findings), a file without jax and a syntax error."""
    for name in ("seed_chapter.py", "frozen_effects.py"):  # traced-value and frozen-state findings
        shutil.copy(os.path.join(FIXTURES, name), tmp_path / name)
    for name, text in EXTRA.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def files_of(tree):
    return sorted(str(p) for p in tree.iterdir() if p.suffix == ".py")


def dicts(findings):
    return [f.to_dict() for f in findings]


def lint(files, cache_dir, config=rule_config(), jobs=1):
    return dicts(runner.lint_each(files, config, jobs=jobs, cache_dir=cache_dir).findings)


class CountingEngine:
    """Counts the files the engine actually lints (a cache hit never reaches it)."""

    def __init__(self, monkeypatch):
        self.calls = []
        real = pipeline.lint_source

        def counted(source, path="<string>", *a, **kw):
            self.calls.append(path)
            return real(source, path, *a, **kw)

        monkeypatch.setattr(pipeline, "lint_source", counted)


def test_cold_warm_and_edits_equal_a_cacheless_run(tree, tmp_path_factory, monkeypatch):
    files = files_of(tree)
    cdir = str(tmp_path_factory.mktemp("cache"))
    reference = lint(files, None)
    assert any(f["code"].startswith("JAX1") for f in reference)  # the tree has findings
    assert any(f["code"] == "JAX001" for f in reference)

    counter = CountingEngine(monkeypatch)
    assert lint(files, cdir) == reference  # cold
    assert len(counter.calls) == len(files)
    assert lint(files, cdir) == reference  # warm: nothing linted again
    assert len(counter.calls) == len(files)

    # Edit one file: a new finding appears, only that file is linted again.
    edited = tree / "edited.py"
    edited.write_text(edited.read_text().replace("return x + 1", "if x > 0:\n        return x\n    return -x"))
    counter.calls.clear()
    after = lint(files, cdir)
    assert counter.calls == [str(edited)]
    assert after == lint(files, None)
    assert any(f["path"] == str(edited) and f["code"] == "JAX101" for f in after)

    # Edit it back: the old entry is still valid and is used.
    edited.write_text(EXTRA["edited.py"])
    counter.calls.clear()
    assert lint(files, cdir) == reference
    assert counter.calls == []


def test_findings_round_trip_exactly(tree, tmp_path):
    files = files_of(tree)
    cdir = str(tmp_path / "c")
    cold = runner.lint_each(files, rule_config(), jobs=1, cache_dir=cdir).findings
    warm = runner.lint_each(files, rule_config(), jobs=1, cache_dir=cdir).findings
    assert [f.to_dict() for f in warm] == [f.to_dict() for f in cold]
    assert all(type(f) is Finding for f in warm)


def test_configuration_and_rule_set_are_part_of_the_key(tree, tmp_path, monkeypatch):
    files = files_of(tree)
    cdir = str(tmp_path / "c")
    lint(files, cdir)
    counter = CountingEngine(monkeypatch)
    only = Config(select=("JAX3",))
    got = lint(files, cdir, only)
    assert len(counter.calls) == len(files)  # a different selection is a different entry
    assert got == lint(files, None, only)
    assert got and all(f["code"].startswith("JAX3") for f in got)
    pfi = Config(per_file_ignores=(("*.py", ("JAX1",)),))
    assert lint(files, cdir, pfi) == lint(files, None, pfi)


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: b"",
        lambda data: data[: len(data) // 2],
        lambda data: b"\x00\xff garbage",
        lambda data: b"[]",
        lambda data: json.dumps({"format": 1, "key": "0" * 64, "findings": []}).encode(),
        lambda data: json.dumps({**json.loads(data), "findings": [{"path": "x"}]}).encode(),
    ],
    ids=["empty", "truncated", "garbage", "not-an-object", "wrong-key", "bad-finding"],
)
def test_corrupt_entries_are_ignored_and_rewritten(tree, tmp_path, damage):
    files = files_of(tree)
    cdir = str(tmp_path / "c")
    reference = lint(files, None)
    lint(files, cdir)
    entries = [p for p in glob.glob(os.path.join(cdir, "*", "*.json"))]
    assert len(entries) == len(files)
    packs = glob.glob(os.path.join(cdir, "pack-*.json"))  # the copy a warm run reads instead
    assert len(packs) == 1
    for p in entries + packs:
        with open(p, "rb") as fh:
            data = fh.read()
        with open(p, "wb") as fh:
            fh.write(damage(data))
    assert lint(files, cdir) == reference
    for p in entries:  # rewritten as valid entries
        with open(p, "rb") as fh:
            assert json.loads(fh.read())["format"] == cache_mod.FORMAT
    assert lint(files, cdir) == reference


def test_an_unchanged_tree_reads_the_index_and_the_pack_and_no_file(tree, tmp_path, monkeypatch):
    files = files_of(tree)
    for f in files:  # written an hour ago: past the index's clock tick (see the next test)
        os.utime(f, (time.time() - 3600, time.time() - 3600))
    cdir = str(tmp_path / "c")

    def lint_run():
        return dicts(runner.lint_configured(files, lambda _p: rule_config(), jobs=1, cache_dir=cdir).findings)

    reference = lint_run()
    opened = []
    real_open = open

    def watching_open(path, *args, **kwargs):
        opened.append(os.path.basename(str(path)))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", watching_open)
    assert lint_run() == reference
    monkeypatch.undo()
    # the source files are not read, nor their entries: the stat index, the pack, and no other
    assert not [name for name in opened if name.endswith(".py")]
    # ... and the record of which rules the configuration enables, for this build
    assert sorted(n for n in opened if n.endswith(".json")) == sorted(
        ["stat-index.json", os.path.basename(glob.glob(os.path.join(cdir, "pack-*.json"))[0]), os.path.basename(glob.glob(os.path.join(cdir, "codes-*.json"))[0])]
    )


def test_a_run_the_whole_run_entry_answers_keeps_what_its_index_learnt(tree, tmp_path, monkeypatch):
    # jaxlint's own files, found at a new place (a new install of the same build): the run the
    # whole-run entry answers reads them once for the build digest, and the index it writes
    # spares the next run reading them again.
    from jaxlint.engine.run import lint_files

    files = files_of(tree)
    for f in files:  # written an hour ago: past the index's clock tick
        os.utime(f, (time.time() - 3600, time.time() - 3600))
    cdir = str(tmp_path / "c")
    reference = dicts(lint_files(files, rule_config(), jobs=1, cache_dir=cdir).findings)
    index_file = os.path.join(cdir, cache_mod.StatIndex.NAME)
    with open(index_file) as fh:
        raw = json.load(fh)
    package = os.path.dirname(os.path.abspath(cache_mod.__file__))
    raw["files"] = {k: v for k, v in raw["files"].items() if not k.startswith(os.path.dirname(package))}
    with open(index_file, "w") as fh:
        json.dump(raw, fh)
    monkeypatch.setattr(cache_mod, "_BUILD", None)
    assert dicts(lint_files(files, rule_config(), jobs=1, cache_dir=cdir).findings) == reference
    monkeypatch.setattr(cache_mod, "_BUILD", None)
    opened = []
    real_open = open

    def watching_open(path, *args, **kwargs):
        opened.append(str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", watching_open)
    assert dicts(lint_files(files, rule_config(), jobs=1, cache_dir=cdir).findings) == reference
    monkeypatch.setattr("builtins.open", real_open)
    assert not [p for p in opened if p.endswith(".py")]


def test_a_file_changed_within_the_index_clock_tick_is_read_again(tree, tmp_path):
    files = files_of(tree)
    cdir = str(tmp_path / "c")
    lint(files, cdir)
    index = cache_mod.StatIndex(cdir)
    st = os.stat(files[0])
    # recorded as it is now, but written in the same second: not trusted
    index.record(files[0], st, "0" * 64)
    index.written_ns = st.st_mtime_ns
    assert index.digest(files[0], st) is None
    index.written_ns = st.st_mtime_ns + 10 * cache_mod.StatIndex.RACY_NS
    assert index.digest(files[0], st) == "0" * 64
    # a changed size, mtime or inode is a changed file
    assert index.digest(files[0], os.stat_result((st.st_mode, st.st_ino + 1, *st[2:]))) is None


def test_cache_folder_has_a_gitignore_and_no_leftover_temporaries(tree, tmp_path):
    cdir = tmp_path / "c"
    lint(files_of(tree), str(cdir))
    assert (cdir / ".gitignore").read_text().splitlines()[-1] == "*"
    assert not [p for p in glob.glob(str(cdir / "**" / "*"), recursive=True) if ".tmp-" in p]


def test_an_unusable_cache_folder_never_fails_a_run(tree, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    files = files_of(tree)
    assert lint(files, str(blocker / "cache")) == lint(files, None)


def test_dependency_digests_change_the_key_in_any_order():
    base = entry_key("settings", "content", "a.py")
    assert entry_key("settings", "content", "a.py", []) == base
    with_deps = entry_key("settings", "content", "a.py", ["d1", "d2"])
    assert with_deps != base
    assert entry_key("settings", "content", "a.py", ["d2", "d1"]) == with_deps
    assert entry_key("settings", "content", "a.py", ["d1", "d3"]) != with_deps
    c = Cache("unused", Config().key(), ["JAX101"])
    assert c.key("content", "a.py", ["d1"]) != c.key("content", "a.py")
    assert c.key("content", "a.py") != c.key("content", "b.py")
    assert c.key("content", "a.py") != Cache("unused", Config(select=("JAX1",)).key(), ["JAX101"]).key("content", "a.py")
    assert c.key("content", "a.py") != Cache("unused", Config().key(), ["JAX102"]).key("content", "a.py")


def _hammer(cdir, key, payload, rounds, out):
    c = Cache(cdir, "cfg", ["JAX101"])
    bad = 0
    for _ in range(rounds):
        c.put(key, payload)
        got = c.get(key)
        if got is None or [f.to_dict() for f in got] != [f.to_dict() for f in payload]:
            bad += 1
    out.put(bad)


@pytest.mark.slow  # starts processes
@pytest.mark.skipif("fork" not in mp.get_all_start_methods(), reason="needs fork")
def test_concurrent_writers_never_expose_a_partial_entry(tmp_path):
    cdir = str(tmp_path / "c")
    findings = [
        Finding("a.py", i, 1, i, 2, "JAX101", "traced-if", "m" * 2000, "fix", context={"function": "f"})
        for i in range(1, 40)
    ]
    key = Cache(cdir, "cfg", ["JAX101"]).key("digest", "a.py")
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    procs = [ctx.Process(target=_hammer, args=(cdir, key, findings, 150, q)) for _ in range(3)]
    for p in procs:
        p.start()
    results = [q.get(timeout=120) for _ in procs]
    for p in procs:
        p.join()
    assert results == [0, 0, 0]
    assert not [p for p in glob.glob(os.path.join(cdir, "**", "*"), recursive=True) if ".tmp-" in p]


@pytest.mark.slow  # starts processes
def test_cross_module_findings_survive_the_cache(tmp_path):
    """Call records are cached with each file's findings: a warm run over a package reports the
    same findings in imported helpers as a cold one."""
    import shutil
    import subprocess
    import sys

    from clirun import env

    pkg = tmp_path / "solver_pkg"
    shutil.copytree(os.path.join(ROOT, "fixtures", "solver_pkg"), pkg)
    cache_dir = tmp_path / "cache"

    def run(*extra):
        p = subprocess.run(
            [sys.executable, "-m", "jaxlint", "-q", "--preview", *extra, "solver_pkg"],
            cwd=str(tmp_path),
            capture_output=True,
            env=env(),
            timeout=120,
        )
        assert p.returncode == 1, p.stderr.decode()
        return p.stdout

    cold = run("--no-cache")
    assert b"in is_converged(), called with traced values from jitted solve_step() in solver_pkg/train.py" in cold
    assert run("--cache-dir", str(cache_dir)) == cold
    assert run("--cache-dir", str(cache_dir)) == cold  # warm: every file from the cache


def test_cross_module_phase_is_cached_and_revalidated(tmp_path):
    """The cross-module phase's result is reused while the modules it read are unchanged, and
    recomputed when one of them changes."""
    import shutil

    from jaxlint.engine.cache import Cache
    from jaxlint.config import Config
    from jaxlint.engine.pipeline import read_and_lint
    from jaxlint.engine.cross_module import cross_module_findings
    from jaxlint.rules import selected_rules

    pkg = tmp_path / "solver_pkg"
    shutil.copytree(os.path.join(ROOT, "fixtures", "solver_pkg"), pkg)
    files = sorted((str(p), os.path.relpath(p, tmp_path)) for p in pkg.glob("*.py"))
    rules = selected_rules(preview=True)
    cache = Cache(str(tmp_path / "cache"), rule_config().key(), tuple(r.code for r in rules))

    def phase():
        calls, own = {}, []
        for path, display in files:
            result = read_and_lint(path, display, rule_config(), rules)
            own += result.findings
            calls[display] = result.calls
        return [(f.path, f.line, f.code) for f in cross_module_findings(files, calls, own, rule_config(), rules, cache)]

    first = phase()
    assert ("solver_pkg/metrics.py", 7, "JAX101") in first
    assert phase() == first  # from the cache
    metrics = pkg / "metrics.py"
    metrics.write_text(metrics.read_text().replace("    if err < tol:  # error: JAX101\n", "    if False:\n"))
    after = phase()
    assert ("solver_pkg/metrics.py", 7, "JAX101") not in after
    assert ("solver_pkg/metrics.py", 13, "JAX104") in after


def test_build_digest_changes_with_the_libcst_version(tmp_path, monkeypatch):
    # The parser decides what a syntax error is: another LibCST must not reuse the entries.
    # The version is read from the installed LibCST's _version.py, as build_digest reads it.
    real = cache_mod.libcst_version_source()
    monkeypatch.setattr(cache_mod, "_BUILD", None)
    before = cache_mod.build_digest()
    # A run with a cache knows that file by its stat: the digest is of the same bytes.
    monkeypatch.setattr(cache_mod, "_BUILD", None)
    assert cache_mod.build_digest(cache_mod.StatIndex(str(tmp_path))) == before
    monkeypatch.setattr(cache_mod, "libcst_version_source", lambda: real.replace(b"__version__", b"__version__ = '0.0.0-other'  #"))
    monkeypatch.setattr(cache_mod, "_BUILD", None)
    assert cache_mod.build_digest() != before
    version = __import__("libcst._version", fromlist=["__version__"]).__version__
    assert repr(version).encode() in real or version.encode() in real


def test_cross_module_work_is_redone_only_where_it_read_an_edited_module(tmp_path, monkeypatch):
    """The phase's work on each target module is cached on its own: an edit re-parses only the
    modules of the work that read the edited file, and the findings stay those of a cold run."""
    import shutil

    from jaxlint.engine import cross_module
    from jaxlint.engine.cache import Cache
    from jaxlint.config import Config
    from jaxlint.engine.pipeline import read_and_lint
    from jaxlint.rules import selected_rules

    pkg = tmp_path / "solver_pkg"
    shutil.copytree(os.path.join(ROOT, "fixtures", "solver_pkg"), pkg)
    files = sorted((str(p), os.path.relpath(p, tmp_path)) for p in pkg.glob("*.py"))
    rules = selected_rules(preview=True)
    cache = Cache(str(tmp_path / "cache"), rule_config().key(), tuple(r.code for r in rules))
    parsed = []
    init = cross_module._Target.__init__

    def counting(self, path, *args):
        parsed.append(os.path.basename(path))
        init(self, path, *args)

    monkeypatch.setattr(cross_module._Target, "__init__", counting)

    def phase():
        parsed.clear()
        calls, own = {}, []
        for path, display in files:
            result = read_and_lint(path, display, rule_config(), rules)
            own += result.findings
            calls[display] = result.calls
        found = [(f.path, f.line, f.code) for f in cross_module.cross_module_findings(files, calls, own, rule_config(), rules, cache)]
        return found, sorted(parsed)

    cold, read = phase()
    assert cold == [("solver_pkg/metrics.py", 7, "JAX101"), ("solver_pkg/metrics.py", 13, "JAX104"), ("solver_pkg/schedule.py", 9, "JAX103")]
    assert read == ["metrics.py", "metrics.py", "schedule.py"]  # metrics.py: its own work, and schedule's re-export of rms
    assert phase() == (cold, [])
    for name, again in (("train.py", []), ("schedule.py", ["metrics.py", "schedule.py"]), ("metrics.py", read)):
        with open(pkg / name, "a", encoding="utf-8") as fh:
            fh.write("\n# edited\n")
        assert phase() == (cold, again), name


def test_work_is_redone_only_where_what_it_read_of_the_run_changed(tmp_path, monkeypatch):
    """A module the phase passed through (a re-export between the package and the helper) is a
    dependency by its summary: an edit that keeps the summary keeps that work, one that changes
    it redoes it.  A file added matters only to the work that asked for its module.  The
    findings stay those of a run without cache."""
    from jaxlint.engine import cross_module
    from jaxlint.engine.run import lint_files

    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .api import clip\n")
    (pkg / "api.py").write_text("from .helpers import clip\n")
    (pkg / "helpers.py").write_text("def clip(x, hi):\n    if x > hi:\n        return hi\n    return x\n")
    main = "import jax\n\nfrom pkg import clip\nfrom pkg.extra import halve\n\n\n@jax.jit\ndef step(x):\n    return clip(x, 1.0) + halve(x)\n"
    (pkg / "main.py").write_text(main)
    interpreted = []
    init = cross_module._Target.__init__

    def counting(self, path, *args):
        interpreted.append(os.path.basename(path))
        init(self, path, *args)

    monkeypatch.setattr(cross_module._Target, "__init__", counting)

    def run(cache=True):
        interpreted.clear()
        found = lint_files([str(pkg)], rule_config(), jobs=1, cache_dir=str(tmp_path / "cache") if cache else None).findings
        return [(os.path.basename(f.path), f.line, f.code) for f in found], sorted(interpreted)

    cold = run()
    assert cold[0] == [("helpers.py", 2, "JAX101")] and "helpers.py" in cold[1]
    api = pkg / "api.py"
    api.write_text('"""The public names."""\n\nfrom .helpers import clip\n')
    assert run() == (cold[0], ["api.py"])  # summarised again, and found as it was
    api.write_text("from .helpers import clip\nfrom .main import step\n")
    edited = run()
    assert edited[0] == run(cache=False)[0] == cold[0] and "helpers.py" in edited[1]
    (pkg / "unrelated.py").write_text("import jax\n\nSCALE = 2\n")
    assert run() == (cold[0], [])
    (pkg / "extra.py").write_text("def halve(x):\n    if x > 0:\n        return x / 2\n    return x\n")
    added = run()
    assert added[0] == run(cache=False)[0] == [("extra.py", 2, "JAX101"), ("helpers.py", 2, "JAX101")]


def test_a_run_the_cache_answers_imports_neither_libcst_nor_the_analysis(tmp_path):
    import subprocess
    import sys

    shutil.copytree(os.path.join(FIXTURES, "factory_pkg"), tmp_path / "pkg")  # a package with cross-module calls
    shutil.copy(os.path.join(FIXTURES, "seed_chapter.py"), tmp_path / "seed_chapter.py")
    for root, _dirs, names in os.walk(tmp_path):
        for name in names:  # written an hour ago: past the stat index's clock tick
            os.utime(os.path.join(root, name), (time.time() - 3600, time.time() - 3600))
    argv = ["--isolated", "--preview", "--cache-dir", str(tmp_path / "c"), "--format", "json", "--exit-zero", "pkg", "seed_chapter.py"]
    probe = (
        "import sys; from jaxlint import cli; cli.main(sys.argv[1:]); "
        "print('\\nimported:', sorted(m for m in ('libcst', 'jaxlint.analysis', 'jaxlint.engine.pipeline') if m in sys.modules))"
    )

    def run():
        p = subprocess.run([sys.executable, "-c", probe, *argv], cwd=tmp_path, capture_output=True, text=True)
        out, _, imported = p.stdout.rpartition("\nimported: ")
        return json.loads(out), imported.strip()

    cold, imported = run()
    assert imported == "['jaxlint.analysis', 'jaxlint.engine.pipeline', 'libcst']" and cold
    warm, imported = run()
    assert (warm, imported) == (cold, "[]")


def test_preloaded_stats_made_by_threads_are_the_stats_made_one_at_a_time(tmp_path, monkeypatch):
    # every stat counts as slow, so all but the first PROBE are made by the threads
    monkeypatch.setattr(cache_mod.StatIndex, "SLOW_STAT_S", 0.0)
    paths = []
    for i in range(3 * cache_mod.StatIndex.PROBE):
        p = tmp_path / f"m{i}.py"
        p.write_text("x = %d\n" % i * (i + 1))
        paths.append(str(p))
    paths.append(str(tmp_path / "missing.py"))
    index = cache_mod.StatIndex(str(tmp_path / "cache"))
    index.preload(paths)
    assert set(index._stats) == set(paths)
    for p in paths[:-1]:
        st = os.stat(p)
        assert (index._stats[p].st_size, index._stats[p].st_ino, index._stats[p].st_mtime_ns) == (st.st_size, st.st_ino, st.st_mtime_ns)
    assert index._stats[paths[-1]] is None
