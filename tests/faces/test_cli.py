"""The jaxlint command: exit codes, selection, suppression, configuration, and the promise that
static mode never imports JAX or the code it reads."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from clirun import ROOT, env, jaxlint

BUGGY = textwrap.dedent(
    """\
    import jax

    @jax.jit
    def f(x, n):
        while x > 0:
            x = x + 1
        for _ in range(n):
            x = x * 2
        print("x", x)
        return x
    """
)


@pytest.fixture
def proj(tmp_path):
    (tmp_path / "bad.py").write_text(BUGGY)
    (tmp_path / "good.py").write_text("import jax\n\n@jax.jit\ndef g(x):\n    return x * 2\n")
    (tmp_path / "notjax.py").write_text("def h(x):\n    if x > 0:\n        return x\n")
    return tmp_path


def codes(out: bytes):
    return sorted(line.split()[1] for line in out.decode().splitlines() if line.strip())


def test_exit_codes_and_output_shape(proj):
    p = jaxlint(["--no-cache", "bad.py"], cwd=str(proj))
    assert p.returncode == 1
    assert p.stdout.decode().splitlines() == [
        "bad.py:5:11: JAX102 Python `while` condition depends on traced value `x` in jitted f()",
        "bad.py:7:14: JAX103 `range()` with traced value `n` in jitted f()",
        "bad.py:9:5: JAX302 [*] `print()` of traced value `x` in jitted f() runs only while tracing and shows a tracer, not its value",
    ]
    assert "Found 3 findings in 1 file" in p.stderr.decode()
    assert jaxlint(["--no-cache", "good.py", "notjax.py"], cwd=str(proj)).returncode == 0
    assert jaxlint(["--no-cache", "--exit-zero", "bad.py"], cwd=str(proj)).returncode == 0


def test_folder_default_and_missing_path(proj):
    p = jaxlint(["--no-cache"], cwd=str(proj))
    assert p.returncode == 1 and codes(p.stdout) == ["JAX102", "JAX103", "JAX302"]
    p = jaxlint(["--no-cache", "bad.py", "nope.py"], cwd=str(proj))
    assert p.returncode == 2
    assert "nope.py: no such file or directory" in p.stderr.decode()
    assert codes(p.stdout) == ["JAX102", "JAX103", "JAX302"]  # the rest was still linted


def test_a_missing_path_is_not_followed_by_all_checks_passed(proj):
    # The summary must not claim success after an error line.
    p = jaxlint(["--no-cache", "good.py", "nope.py"], cwd=str(proj))
    assert p.returncode == 2
    assert p.stdout == b""
    assert p.stderr.decode() == (
        "jaxlint: error: nope.py: no such file or directory\n"
        "No findings (1 file checked), 1 error.\n"
    )


@pytest.mark.parametrize(
    "args,expected",
    [
        (["--select", "JAX1"], ["JAX102", "JAX103"]),
        (["--select", "JAX102,JAX302"], ["JAX102", "JAX302"]),
        (["--ignore", "JAX3"], ["JAX102", "JAX103"]),
        (["--select", "JAX1", "--ignore", "JAX103"], ["JAX102"]),
        # extend-select adds to the default selection (it does not replace it).
        (["--ignore", "JAX1", "--extend-select", "JAX103"], ["JAX103", "JAX302"]),
        (["--select", "ALL"], ["JAX102", "JAX103", "JAX302"]),
        (["--select", "ALL", "--ignore", "JAX1"], ["JAX302"]),
        (["--select", "jax1"], ["JAX102", "JAX103"]),
    ],
)
def test_select_and_ignore(proj, args, expected):
    p = jaxlint(["--no-cache", *args, "bad.py"], cwd=str(proj))
    assert codes(p.stdout) == expected


@pytest.mark.parametrize(
    "comment,expected",
    [
        ("  # noqa", ["JAX103", "JAX302"]),
        ("  # noqa: JAX102", ["JAX103", "JAX302"]),
        ("  # noqa: JAX1", ["JAX103", "JAX302"]),
        ("  # NOQA:JAX102,E501", ["JAX103", "JAX302"]),
        ("  # noqa: JAX302", ["JAX102", "JAX103", "JAX302"]),
    ],
)
def test_noqa(proj, comment, expected):
    src = BUGGY.replace("while x > 0:", "while x > 0:" + comment)
    (proj / "bad.py").write_text(src)
    assert codes(jaxlint(["--no-cache", "bad.py"], cwd=str(proj)).stdout) == expected


def test_pyproject_configuration(proj):
    (proj / "pyproject.toml").write_text(
        textwrap.dedent(
            """\
            [tool.jaxlint]
            ignore = ["JAX302"]
            exclude = ["skipped/*"]
            extra-jit-decorators = ["mylib.fast"]

            [tool.jaxlint.per-file-ignores]
            "tests/*" = ["JAX1"]
            """
        )
    )
    (proj / "skipped").mkdir()
    (proj / "skipped" / "x.py").write_text(BUGGY)
    (proj / "tests").mkdir()
    (proj / "tests" / "t.py").write_text(BUGGY)
    (proj / "custom.py").write_text(
        "import jax\nimport mylib\n\n@mylib.fast\ndef k(x):\n    while x > 0:\n        x = x - 1\n    return x\n"
    )
    out = json.loads(jaxlint(["--no-cache", "--format", "json", "."], cwd=str(proj)).stdout)
    got = sorted((f["path"], f["code"]) for f in out)
    assert got == [("bad.py", "JAX102"), ("bad.py", "JAX103"), ("custom.py", "JAX102")]


@pytest.mark.parametrize(
    "config,args,expected",
    [
        # The command line applies after the file, as in ruff: its ignore wins over the file's
        # select, however specific that is.
        ('select = ["JAX102", "JAX302"]', ["--ignore", "ALL"], []),
        ('select = ["JAX102", "JAX302"]', ["--ignore", "JAX3"], ["JAX102"]),
        ('select = ["JAX102"]', ["--ignore", "ALL", "--extend-select", "JAX103"], ["JAX103"]),
        # ... and its extend-select over the file's ignore.
        ('ignore = ["JAX102"]', ["--extend-select", "JAX1"], ["JAX102", "JAX103", "JAX302"]),
        # The file's own ignore still applies under a command-line ignore of something else.
        ('ignore = ["JAX102"]', ["--ignore", "JAX302"], ["JAX103"]),
        # --select replaces the file's whole selection.
        ('ignore = ["JAX1"]', ["--select", "JAX1"], ["JAX102", "JAX103"]),
    ],
)
def test_command_line_selection_applies_after_the_configuration(proj, config, args, expected):
    (proj / "pyproject.toml").write_text(f"[tool.jaxlint]\n{config}\n")
    p = jaxlint(["--no-cache", *args, "bad.py"], cwd=str(proj))
    assert codes(p.stdout) == expected
    assert p.returncode == (1 if expected else 0)


def _tree(root, files):
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def _found(root, args):
    out = json.loads(jaxlint(["--no-cache", "--format", "json", *args], cwd=str(root)).stdout)
    return sorted((f["path"], f["code"]) for f in out)


def test_extend_applies_the_named_file_first_and_this_file_over_it(tmp_path):
    _tree(
        tmp_path,
        {
            # The base: its globs are relative to its own folder.
            "pyproject.toml": '[tool.jaxlint]\nignore = ["JAX302"]\nextend-exclude = ["sub/gen/*"]\n'
            '[tool.jaxlint.per-file-ignores]\n"sub/tests/*" = ["JAX102"]\n',
            "sub/pyproject.toml": '[tool.jaxlint]\nextend = "../pyproject.toml"\nextend-exclude = ["own/*"]\n',
            "sub/bad.py": BUGGY,
            "sub/gen/g.py": BUGGY,
            "sub/own/o.py": BUGGY,
            "sub/tests/t.py": BUGGY,
        },
    )
    assert _found(tmp_path / "sub", ["."]) == [("bad.py", "JAX102"), ("bad.py", "JAX103"), ("tests/t.py", "JAX103")]
    # This file's settings win where it sets them: its select replaces the base's selection.
    (tmp_path / "sub" / "pyproject.toml").write_text('[tool.jaxlint]\nextend = "../pyproject.toml"\nselect = ["JAX3"]\n')
    assert _found(tmp_path / "sub", ["bad.py"]) == [("bad.py", "JAX302")]
    # Its extend-select and ignore apply after the base's selection.
    (tmp_path / "sub" / "pyproject.toml").write_text(
        '[tool.jaxlint]\nextend = "../pyproject.toml"\nextend-select = ["JAX302"]\nignore = ["JAX103"]\n'
    )
    assert _found(tmp_path / "sub", ["bad.py"]) == [("bad.py", "JAX102"), ("bad.py", "JAX302")]
    # Without extend the base is not read.
    (tmp_path / "sub" / "pyproject.toml").write_text("[tool.jaxlint]\n")
    assert len(_found(tmp_path / "sub", ["."])) == 12


def test_extend_chains_and_resolves_each_path_from_the_file_that_names_it(tmp_path):
    _tree(
        tmp_path,
        {
            "shared/base.toml": 'select = ["JAX1"]\n',
            "shared/team.toml": 'extend = "base.toml"\nignore = ["JAX102"]\n',
            "proj/jaxlint.toml": 'extend = "../shared/team.toml"\n',
            "proj/bad.py": BUGGY,
        },
    )
    assert _found(tmp_path / "proj", ["bad.py"]) == [("bad.py", "JAX103")]
    assert _found(tmp_path, ["--config", "proj/jaxlint.toml", "proj/bad.py"]) == [("proj/bad.py", "JAX103")]


def test_bad_configuration_is_a_usage_error(proj):
    (proj / "pyproject.toml").write_text("[tool.jaxlint]\nselct = ['JAX1']\n")
    p = jaxlint(["bad.py"], cwd=str(proj))
    assert p.returncode == 2
    assert "[tool.jaxlint] unknown setting 'selct'" in p.stderr.decode()
    assert len(p.stderr.decode().splitlines()) == 1
    assert "Traceback" not in p.stderr.decode()


def test_explain_and_list_rules():
    p = jaxlint(["--explain", "JAX101"])
    text = p.stdout.decode()
    assert p.returncode == 0
    for heading in ("What it does", "Why is this bad?", "Example", "Use instead", "jnp.where", "lax.cond"):
        assert heading in text
    assert jaxlint(["--explain", "JAX999"]).returncode == 2
    listing = jaxlint(["--list-rules"]).stdout.decode()
    assert "JAX304  inplace-array-update" in listing
    from jaxlint.rules import ALL_RULES

    for r in ALL_RULES:
        said = "Status: preview; it runs only with --preview" in jaxlint(["--explain", r.code]).stdout.decode()
        assert said == (r.status == "preview"), r.code


def test_static_mode_imports_neither_jax_nor_the_linted_code(tmp_path):
    marker = tmp_path / "ran"
    (tmp_path / "evil.py").write_text(
        f"import jax\nopen({str(marker)!r}, 'w').write('x')\n\n@jax.jit\ndef f(x):\n    return x if x > 0 else -x\n"
    )
    code = (
        "import sys; from jaxlint.cli import main; rc = main(['--no-cache', '--preview', '-q', %r]);"
        "assert not any(m == 'jax' or m.startswith('jax.') for m in sys.modules), 'jax imported';"
        "assert 'evil' not in sys.modules; sys.exit(rc)" % str(tmp_path / "evil.py")
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env(), cwd=ROOT, timeout=120)
    assert p.returncode == 1, p.stderr.decode()
    assert "JAX101" in p.stdout.decode()
    assert not marker.exists()


def _modules_loaded_by(args, cwd):
    code = (
        "import sys; from jaxlint.cli import main; rc = main(%r);"
        "print(*sorted(m for m in sys.modules if m.startswith('jaxlint')), file=sys.stderr); sys.exit(rc)" % list(args)
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env(), cwd=str(cwd), timeout=120)
    assert p.returncode in (0, 1), p.stderr.decode()
    return set(p.stderr.decode().split())


# What a plain run leaves alone: the --fix machinery, the review modes, the output formats it does
# not print, report files and dynamic mode.
NOT_FOR_A_PLAIN_RUN = {
    "jaxlint.fix_command",
    "jaxlint.engine.fixing",
    "jaxlint.engine.edits",
    "jaxlint.engine.noqa_comments",
    "jaxlint.review.baseline",
    "jaxlint.review.diffmode",
    "jaxlint.formats.github",
    "jaxlint.formats.gitlab",
    "jaxlint.formats.rdjson",
    "jaxlint.formats.sarif",
    "jaxlint.formats.junit",
    "jaxlint.formats.lines",
    "jaxlint.output",
    "jaxlint.dynamic",
}


@pytest.mark.slow  # starts an interpreter
def test_a_plain_run_imports_only_what_it_uses(proj):
    loaded = _modules_loaded_by(["--no-cache", "-q", "bad.py"], proj)
    assert {"jaxlint.engine.pipeline", "jaxlint.formats.text"} <= loaded
    assert loaded & NOT_FOR_A_PLAIN_RUN == set()


@pytest.mark.slow  # starts an interpreter
def test_a_clean_run_loads_no_fix_machinery_and_a_cached_one_no_release_table(proj):
    loaded = _modules_loaded_by(["--no-cache", "-q", "good.py"], proj)
    # The package holds no builder: it names them, and each is imported once a rule makes a finding.
    fixes = {m for m in loaded if m.startswith("jaxlint.fixes.") or m.startswith("jaxlint.engine.fix")}
    assert fixes == set()
    _modules_loaded_by(["--cache-dir", "c", "-q", "good.py"], proj)
    code = (
        "import sys; from jaxlint.cli import main; rc = main(['--cache-dir', 'c', '-q', 'good.py']);"
        "from jaxlint.analysis.jax import jax_api_migrations as t; sys.exit(rc or 3 * bool(t._LOADED))"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env(), cwd=str(proj), timeout=120)
    assert p.returncode == 0, "the cache answered; the JAX release table must not have been read"


@pytest.mark.slow  # starts an interpreter
def test_a_run_the_cache_answers_imports_no_rule_and_no_libcst(proj):
    # pre-commit's second run over an unchanged file: the findings and their text come from the
    # cache; only a terminal's colours would need the rules (their severity).
    first = jaxlint(["--cache-dir", "c", "bad.py"], cwd=str(proj))
    code = (
        "import sys; from jaxlint.cli import main; rc = main(['--cache-dir', 'c', 'bad.py']);"
        "print('loaded:', *sorted(m for m in sys.modules if m.startswith(('libcst', 'jaxlint.rules.', 'importlib.metadata'))), file=sys.stderr);"
        "sys.exit(rc)"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env(), cwd=str(proj), timeout=120)
    assert p.returncode == first.returncode == 1
    assert p.stdout == first.stdout
    loaded = set(p.stderr.decode().split("loaded:")[1].split())
    assert loaded <= {"jaxlint.rules.severity"}, loaded


@pytest.mark.slow  # starts an interpreter
def test_the_options_import_what_they_need(proj):
    loaded = _modules_loaded_by(["--no-cache", "-q", "--format", "sarif", "--write-baseline", "b.json", "bad.py"], proj)
    assert loaded & NOT_FOR_A_PLAIN_RUN == {"jaxlint.formats.sarif", "jaxlint.review.baseline"}
    loaded = _modules_loaded_by(["--no-cache", "-q", "--fix-diff", "bad.py"], proj)
    assert loaded & NOT_FOR_A_PLAIN_RUN == {"jaxlint.fix_command", "jaxlint.engine.fixing", "jaxlint.engine.edits"}


@pytest.mark.slow  # starts an interpreter
def test_console_script_is_installed_and_agrees_with_python_dash_m(proj):
    import shutil

    # pip puts the console script next to the interpreter, whether or not that folder is on PATH
    # (a virtual environment used without activating it).
    exe = shutil.which("jaxlint", path=os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")]))
    assert exe, "the jaxlint console script is installed next to the interpreter by pip install"
    a = subprocess.run([exe, "--no-cache", "bad.py"], cwd=str(proj), capture_output=True, env=env(), timeout=120)
    b = jaxlint(["--no-cache", "bad.py"], cwd=str(proj))
    assert a.returncode == b.returncode == 1
    assert a.stdout == b.stdout
    v = subprocess.run([exe, "--version"], capture_output=True, env=env(), timeout=60)
    from jaxlint.versions import __version__

    assert v.stdout.decode().strip() == f"jaxlint {__version__}"


def test_explain_is_plain_text_for_every_rule():
    from jaxlint.rules import ALL_RULES

    for rule in ALL_RULES:
        p = jaxlint(["--explain", rule.code.lower()]) if rule.code == "JAX101" else None
        text = rule.explain()
        assert "``" not in text, rule.code
        if p is not None:
            assert p.returncode == 0 and p.stdout.decode() == text


def test_list_rules_wraps_to_the_terminal_and_has_a_json_form():
    from jaxlint.rules import ALL_RULES

    p = jaxlint(["--list-rules"], COLUMNS="60")
    lines = p.stdout.decode().splitlines()
    assert p.returncode == 0 and all(len(line) <= 60 for line in lines)
    assert [line.split()[0] for line in lines if line.startswith("JAX")] == [r.code for r in ALL_RULES]
    assert "``" not in p.stdout.decode()
    p = jaxlint(["--list-rules", "--format", "json"])
    rows = json.loads(p.stdout)
    assert [r["code"] for r in rows] == [r.code for r in ALL_RULES]
    assert {r["code"] for r in rows if not r["default_enabled"]} == {"JAX004"}
    assert {r["code"] for r in rows if r["status"] == "preview"} == {r.code for r in ALL_RULES if r.status == "preview"}
    assert jaxlint(["--list-rules", "--format", "sarif"]).returncode == 2
