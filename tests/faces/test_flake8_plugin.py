"""The flake8 plugin, driven through the real ``flake8`` and compared with the real ``jaxlint``."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import textwrap
from importlib import metadata

import pytest

from clirun import ROOT, env, jaxlint, jaxlint_json

# Runs flake8 in subprocesses.
pytestmark = pytest.mark.slow

FIXTURES = sorted(
    os.path.relpath(p, ROOT).replace(os.sep, "/")
    for p in glob.glob(os.path.join(ROOT, "fixtures", "**", "*.py"), recursive=True)
)


def _entry_point_installed() -> bool:
    eps = metadata.entry_points(group="flake8.extension")
    return any(ep.name == "JAX" and ep.value == "jaxlint.flake8_plugin:JaxlintChecker" for ep in eps)


def flake8(args, cwd=ROOT, tmp_path=None, stdin=None, cache=False) -> subprocess.CompletedProcess:
    """Run the real flake8 with the plugin: through its installed entry point when jaxlint is
    installed (as in CI), otherwise declared as a local plugin (registering both would run it
    twice).  PYTHONPATH makes either import this checkout's code.  Without ``cache`` the plugin
    neither reads nor writes its result cache."""
    if _entry_point_installed():
        opts = ["--isolated"]
    else:
        assert tmp_path is not None
        cfg = os.path.join(str(tmp_path), "flake8-local-plugin.cfg")
        with open(cfg, "w") as fh:
            fh.write(f"[flake8:local-plugins]\nextension =\n    JAX = jaxlint.flake8_plugin:JaxlintChecker\npaths = {ROOT}\n")
        opts = ["--config", cfg]
    if not cache:
        opts.append("--jaxlint-no-cache")
    return subprocess.run(
        [sys.executable, "-m", "flake8", *opts, *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        env=env(),
        timeout=300,
    )


def parse_flake8(stdout: bytes):
    out = []
    for line in stdout.decode("utf-8").splitlines():
        path, row, col, rest = line.split(":", 3)
        code, message = rest.strip().split(" ", 1)
        out.append((path, int(row), int(col), code, message))
    return out


def cli_tuples(findings):
    return [(f["path"], f["line"], f["column"], f["code"], f["message"]) for f in findings]


PREVIEW = "[tool.jaxlint]\npreview = true\n"


def with_preview(folder):
    """flake8 has no --preview: the plugin runs the rules that the jaxlint configuration closest
    to each file enables.  The examples here are findings of rules in preview (JAX101's traced
    ``if``, JAX104), so the folder's configuration turns preview on, and the command the plugin
    is compared with reads the same file."""
    (folder / "pyproject.toml").write_text(PREVIEW)
    return folder


def test_entry_point_declared_and_importable():
    import tomllib

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        eps = tomllib.load(fh)["project"]["entry-points"]["flake8.extension"]
    assert eps == {"JAX": "jaxlint.flake8_plugin:JaxlintChecker"}
    from jaxlint.flake8_plugin import JaxlintChecker

    assert JaxlintChecker.name == "jaxlint"


@pytest.mark.skipif(not _entry_point_installed(), reason="jaxlint is not pip-installed (CI installs it)")
def test_flake8_lists_the_installed_plugin():
    p = subprocess.run([sys.executable, "-m", "flake8", "--version"], capture_output=True, env=env(), timeout=120)
    # flake8 prints the version of the installed distribution (its metadata, not this tree).
    from importlib.metadata import version

    assert f"jaxlint: {version('jaxlint')}" in p.stdout.decode()


@pytest.fixture(scope="module")
def fixture_runs(tmp_path_factory):
    if not FIXTURES:
        return {}, {}
    tmp = tmp_path_factory.mktemp("flake8")
    # A copy of the fixtures under a configuration with every rule, preview included (the
    # repository's own configuration leaves the rules in preview off).
    work = with_preview(tmp_path_factory.mktemp("work"))
    shutil.copytree(os.path.join(ROOT, "fixtures"), work / "fixtures")
    p = flake8(["--select", "JAX,E999,E902", *FIXTURES], cwd=str(work), tmp_path=tmp)
    assert p.returncode in (0, 1), p.stderr.decode()
    assert p.stderr == b"", p.stderr.decode()
    by_file_flake8 = {}
    for t in parse_flake8(p.stdout):
        by_file_flake8.setdefault(t[0], []).append(t)
    # flake8 sees one file at a time: compare with `jaxlint FILE`, one file per run (a run over
    # several files adds findings in imported helpers, which a per-file plugin cannot see).
    by_file_cli = {}
    for fixture in FIXTURES:
        for t in cli_tuples(jaxlint_json(["--no-cache", fixture], cwd=str(work))):
            by_file_cli.setdefault(t[0], []).append(t)
    return by_file_flake8, by_file_cli


def test_there_are_fixtures():
    assert FIXTURES, "fixtures/**/*.py is empty"


@pytest.mark.parametrize("fixture", FIXTURES)
def test_flake8_matches_cli_on_fixture(fixture, fixture_runs):
    by_file_flake8, by_file_cli = fixture_runs
    got = sorted(by_file_flake8.get(fixture, []))
    want = sorted(by_file_cli.get(fixture, []))
    try:
        with open(os.path.join(ROOT, fixture), "rb") as fh:
            compile(fh.read(), fixture, "exec", dont_inherit=True)
    except SyntaxError:
        # flake8 reports a syntax error itself (E999) and runs no plugin; jaxlint says JAX001.
        assert [t[3] for t in want] == ["JAX001"]
        assert [t[3] for t in got] == ["E999"]
        return
    assert got == want


def _write(path, text: str) -> str:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(textwrap.dedent(text))
    return str(path)


NOQA_SOURCE = """\
    import jax


    @jax.jit
    def f(x, y):
        if x > 0:  # noqa: JAX101
            x = -x
        if y > 0:  # noqa:JAX1
            y = -y
        if x > y:  # noqa
            x = y
        if x < y:  # noqa: E501
            x = y
        while x > 0:  # noqa: JAX101
            x = x - 1
        return x
    """


def test_noqa_is_applied_by_flake8_exactly_once(tmp_path):
    src = tmp_path / "proj"
    src.mkdir()
    with_preview(src)
    f = _write(src / "noqa_cases.py", NOQA_SOURCE)
    p = flake8(["--select", "JAX", f], tmp_path=tmp_path, cwd=str(src))
    assert p.returncode == 1, p.stderr.decode()
    got = parse_flake8(p.stdout)
    # Only the lines whose noqa does not name the finding's code survive.
    assert [(r, c, code) for _, r, c, code, _ in got] == [(12, 8, "JAX101"), (14, 11, "JAX102")]
    # The CLI agrees on the same file.
    cli = cli_tuples(jaxlint_json([f], cwd=str(src)))
    assert [(r, c, code) for _, r, c, code, _ in cli] == [(12, 8, "JAX101"), (14, 11, "JAX102")]
    assert [t[1:] for t in got] == [t[1:] for t in cli]

    # --disable-noqa shows every finding, each once: the plugin does not pre-filter.
    p = flake8(["--select", "JAX", "--disable-noqa", f], tmp_path=tmp_path, cwd=str(src))
    rows = [(r, c, code) for _, r, c, code, _ in parse_flake8(p.stdout)]
    assert rows == [(6, 8, "JAX101"), (8, 8, "JAX101"), (10, 8, "JAX101"), (12, 8, "JAX101"), (14, 11, "JAX102")]


def test_flake8_ignore_and_select_filter_plugin_codes(tmp_path):
    with_preview(tmp_path)
    f = _write(tmp_path / "m.py", NOQA_SOURCE)
    p = flake8(["--select", "JAX", "--extend-ignore", "JAX102", "--disable-noqa", f], tmp_path=tmp_path, cwd=str(tmp_path))
    assert [t[3] for t in parse_flake8(p.stdout)] == ["JAX101"] * 4
    p = flake8(["--select", "JAX102", "--disable-noqa", f], tmp_path=tmp_path, cwd=str(tmp_path))
    assert [t[3] for t in parse_flake8(p.stdout)] == ["JAX102"]


EXTRA_JIT_SOURCE = """\
    import mylib


    @mylib.fastjit
    def f(x):
        if x > 0:
            return x
        return -x
    """


def test_tool_jaxlint_extra_jit_decorators_apply_under_flake8(tmp_path):
    proj = tmp_path / "proj"
    proj.mkdir()
    _write(proj / "pyproject.toml", '[tool.jaxlint]\npreview = true\nextra-jit-decorators = ["mylib.fastjit"]\n')
    _write(proj / "uses_wrapper.py", EXTRA_JIT_SOURCE)
    p = flake8(["--select", "JAX", "uses_wrapper.py"], tmp_path=tmp_path, cwd=str(proj))
    got = parse_flake8(p.stdout)
    assert got == [("uses_wrapper.py", 6, 8, "JAX101", "Python `if` on traced value `x` in jitted f()")]
    assert got == cli_tuples(jaxlint_json(["uses_wrapper.py"], cwd=str(proj)))

    # Without the setting the same file is silent under both.
    other = tmp_path / "other"
    other.mkdir()
    _write(other / "pyproject.toml", PREVIEW)
    _write(other / "uses_wrapper.py", EXTRA_JIT_SOURCE)
    p = flake8(["--select", "JAX", "uses_wrapper.py"], tmp_path=tmp_path, cwd=str(other))
    assert (p.returncode, p.stdout) == (0, b"")
    assert jaxlint_json(["uses_wrapper.py"], cwd=str(other)) == []


def test_tool_jaxlint_ignore_and_per_file_ignores_apply_under_flake8(tmp_path):
    _write(
        tmp_path / "pyproject.toml",
        '[tool.jaxlint]\npreview = true\nignore = ["JAX102"]\n[tool.jaxlint.per-file-ignores]\n"skip_*.py" = ["JAX101"]\n',
    )
    _write(tmp_path / "keep.py", NOQA_SOURCE)
    _write(tmp_path / "skip_me.py", NOQA_SOURCE)
    p = flake8(["--select", "JAX", "--disable-noqa", "keep.py", "skip_me.py"], tmp_path=tmp_path, cwd=str(tmp_path))
    got = [(path, r, code) for path, r, _, code, _ in parse_flake8(p.stdout)]
    assert got == [("keep.py", r, "JAX101") for r in (6, 8, 10, 12)]


def test_syntax_error_is_flake8s_e999(tmp_path):
    f = _write(tmp_path / "broken.py", "import jax\ndef f(x) return x\n")
    p = flake8(["--select", "JAX,E999", f], tmp_path=tmp_path, cwd=str(tmp_path))
    assert [t[3] for t in parse_flake8(p.stdout)] == ["E999"]
    assert [t[3] for t in cli_tuples(jaxlint_json([f], cwd=str(tmp_path)))] == ["JAX001"]


def test_a_malformed_configuration_is_one_line_not_a_traceback(tmp_path):
    _write(tmp_path / "pyproject.toml", "[tool.jaxlint]\nselect = 3\n")
    _write(tmp_path / "uses_jit.py", NOQA_SOURCE)
    p = flake8(["--select", "JAX", "uses_jit.py"], tmp_path=tmp_path, cwd=str(tmp_path))
    reason = "pyproject.toml: [tool.jaxlint] select must be a list of rule codes, not a number"
    assert p.returncode == 1
    assert p.stderr == b""
    first, *rest = p.stdout.decode().splitlines()
    assert first.startswith("uses_jit.py: ") and first.endswith(f" failed during execution due to {reason}"), first
    assert rest == ["Run flake8 with greater verbosity to see more details"]
    # The command says the same thing.
    cli = jaxlint(["uses_jit.py"], cwd=str(tmp_path))
    assert (cli.returncode, cli.stderr.decode()) == (2, f"jaxlint: error: {reason}\n")


def test_stdin_matches_cli_stdin_filename(tmp_path):
    with_preview(tmp_path)
    data = textwrap.dedent(NOQA_SOURCE).encode()
    p = flake8(
        ["--select", "JAX", "--disable-noqa", "--stdin-display-name", "pkg/mod.py", "-"],
        tmp_path=tmp_path,
        cwd=str(tmp_path),
        stdin=data,
    )
    got = parse_flake8(p.stdout)
    assert [t[0] for t in got] == ["pkg/mod.py"] * 5
    q = jaxlint(["--stdin-filename", "pkg/mod.py", "--format", "json"], cwd=str(tmp_path), stdin=data)
    import json

    cli = cli_tuples(json.loads(q.stdout))
    # The CLI applies noqa itself; flake8 --disable-noqa shows all five.
    assert [t for t in got if t[1] in (12, 14)] == cli


def test_text_gate_skips_parsing(monkeypatch):
    import libcst

    from jaxlint import flake8_plugin

    def boom(*a, **k):
        raise AssertionError("parsed a file that never mentions jax")

    monkeypatch.setattr(libcst, "parse_module", boom)
    lines = ["import numpy as np\n", "def f(x):\n", "    if x > 0:\n", "        return x\n"]
    assert list(flake8_plugin.JaxlintChecker(None, os.path.join(ROOT, "nojax.py"), lines).run()) == []


def _checker_runs(monkeypatch, tmp_path, options):
    """Findings of two checkers on one file, and how many times the plugin analysed it."""
    from jaxlint import flake8_plugin
    from jaxlint.engine import pipeline

    monkeypatch.setattr(flake8_plugin, "_CACHES", {})
    monkeypatch.setattr(flake8_plugin, "_CACHE_DIR", None)  # restored after the test
    flake8_plugin.JaxlintChecker.parse_options(options)
    analysed = []
    real = pipeline.lint_source

    def counting(*a, **k):
        analysed.append(a[1])
        return real(*a, **k)

    # The plugin asks the engine for one buffer through the cache (pipeline.lint_cached).
    monkeypatch.setattr(pipeline, "lint_source", counting)
    with_preview(tmp_path)
    path = tmp_path / "m.py"
    path.write_text("import jax\n\n\n@jax.jit\ndef f(x):\n    if x > 0:  # noqa: JAX101\n        return x\n    return -x\n")
    lines = path.read_text().splitlines(True)
    runs = [list(flake8_plugin.JaxlintChecker(None, str(path), lines).run()) for _ in range(2)]
    return runs, len(analysed)


def test_a_file_seen_before_is_read_from_the_cache(monkeypatch, tmp_path):
    from types import SimpleNamespace

    cdir = tmp_path / "cache"
    runs, analysed = _checker_runs(monkeypatch, tmp_path, SimpleNamespace(jaxlint_cache_dir=str(cdir), jaxlint_no_cache=False))
    assert analysed == 1
    # the same findings both times, the noqa'd one included (flake8 applies ``# noqa``)
    assert runs[0] == runs[1] and [r[0] for r in runs[0]] == [6]
    assert glob.glob(str(cdir / "*" / "*.json"))


def test_no_cache_analyses_every_time_and_writes_nothing(monkeypatch, tmp_path):
    from types import SimpleNamespace

    runs, analysed = _checker_runs(monkeypatch, tmp_path, SimpleNamespace(jaxlint_cache_dir=str(tmp_path / "cache"), jaxlint_no_cache=True))
    assert analysed == 2 and runs[0] == runs[1]
    assert not (tmp_path / "cache").exists()


def test_flake8_twice_with_the_cache_gives_the_same_report(tmp_path):
    with_preview(tmp_path)
    src = tmp_path / "m.py"
    src.write_text("import jax\n\n\n@jax.jit\ndef f(x):\n    if x > 0:\n        return x\n    return -x\n")
    args = ["--select", "JAX", "--jaxlint-cache-dir", str(tmp_path / "cache"), "m.py"]
    first = flake8(args, cwd=str(tmp_path), tmp_path=tmp_path, cache=True)
    again = flake8(args, cwd=str(tmp_path), tmp_path=tmp_path, cache=True)
    assert first.stdout.decode().startswith("m.py:6:8: JAX101 ")
    assert (again.returncode, again.stdout, again.stderr) == (first.returncode, first.stdout, first.stderr)
    assert glob.glob(str(tmp_path / "cache" / "*" / "*.json"))


def test_unicode_columns_match(tmp_path):
    src = """\
        import jax


        @jax.jit
        def f(x):
            y = "é€"; z = "日本"
            return "ü" if x > 0 else "ö"
        """
    with_preview(tmp_path)
    _write(tmp_path / "uni.py", src)
    p = flake8(["--select", "JAX", "uni.py"], tmp_path=tmp_path, cwd=str(tmp_path))
    got = parse_flake8(p.stdout)
    cli = cli_tuples(jaxlint_json(["uni.py"], cwd=str(tmp_path)))
    assert len(got) == 1 and got == cli


NOQA_BODY = textwrap.dedent(
    """\
    import jax

    @jax.jit
    def f(x, n):
        if x > 0:{c1}
            x = x + 1
        for _ in range(n):{c2}
            x = x * 2
        y = x + \\
            float(x){c3}
        return y
    """
)


@pytest.mark.parametrize(
    "header,c1,c2,c3",
    [
        ("", "  # NOQA: JAX101", "", ""),
        ("", "  # noqa: jax101", "  # noqa:JAX103", ""),
        ("", "  # noqa", "  # noqa: JAX1O3", "  # noqa: JAX104"),
        ("", "  #noqa", "  # noqa: E501,JAX1", "  # noqa:  JAX104"),
        ("# flake8: noqa\n", "", "", ""),
        ("# jaxlint: noqa\n", "", "", ""),
        ("# jaxlint: noqa: JAX10\n", "", "", ""),
    ],
    ids=["upper-noqa", "lower-code", "bare-and-typo", "spacing", "flake8-file", "jaxlint-file", "jaxlint-file-codes"],
)
def test_noqa_forms_agree_with_flake8(tmp_path, header, c1, c2, c3):
    with_preview(tmp_path)
    (tmp_path / "m.py").write_text(header + NOQA_BODY.format(c1=c1, c2=c2, c3=c3))
    p = flake8(["--select", "JAX", "m.py"], cwd=str(tmp_path), tmp_path=tmp_path)
    assert p.returncode in (0, 1), p.stderr.decode()
    via_flake8 = sorted((row, col, code) for _, row, col, code, _ in parse_flake8(p.stdout))
    via_cli = sorted((f["line"], f["column"], f["code"]) for f in jaxlint_json(["--no-cache", "m.py"], cwd=str(tmp_path)))
    assert via_cli == via_flake8


def test_flake8_with_an_absolute_path_from_elsewhere_uses_the_files_configuration(tmp_path):
    # Editors run flake8 on an absolute path from any folder: the globs stay relative to the
    # pyproject.toml that defines them.
    proj = tmp_path / "proj"
    (proj / "tests").mkdir(parents=True)
    (proj / "pyproject.toml").write_text(PREVIEW + '[tool.jaxlint.per-file-ignores]\n"tests/*" = ["JAX101"]\n')
    (proj / "tests" / "t.py").write_text(NOQA_BODY.format(c1="", c2="", c3=""))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = str(proj / "tests" / "t.py")
    p = flake8(["--select", "JAX", target], cwd=str(elsewhere), tmp_path=tmp_path)
    assert sorted(code for *_, code, _ in parse_flake8(p.stdout)) == ["JAX103", "JAX104"]
    via_cli = jaxlint_json(["--no-cache", target], cwd=str(elsewhere))
    assert sorted(f["code"] for f in via_cli) == ["JAX103", "JAX104"]
