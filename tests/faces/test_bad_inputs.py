"""Every bad input is one line on standard error and exit 2: never a traceback, never exit 1
(which means "findings"), never a run that silently checks nothing."""

import textwrap

import pytest

from clirun import jaxlint

BUGGY = "import jax\n\n@jax.jit\ndef f(x):\n    while x > 0:\n        x = x - 1\n    return x\n"


def pyproject(body: str):
    return {"pyproject.toml": textwrap.dedent(body)}


# (id, files to create, arguments, fragment the one line must hold)
CASES = [
    ("select-typo-letter-o", {}, ["--select", "JAX1O1"], "did you mean 'JAX101'"),
    ("select-unknown-family", {}, ["--select", "JAX9"], "unknown rule selector 'JAX9'"),
    ("ignore-foreign-code", {}, ["--ignore", "E501"], "--ignore: unknown rule selector 'E501'"),
    ("extend-select-unknown", {}, ["--extend-select", "JAX1000"], "--extend-select: unknown rule selector"),
    ("extend-ignore-unknown", {}, ["--extend-ignore", "JAXX"], "--extend-ignore: unknown rule selector"),
    ("select-empty", {}, ["--select", ""], "--select: empty rule selector"),
    ("select-only-commas", {}, ["--select", ", ,"], "--select: empty rule selector"),
    ("ignore-empty", {}, ["--ignore", ""], "--ignore: empty rule selector"),
    ("config-select-empty-string", pyproject('[tool.jaxlint]\nselect = [""]\n'), [], "select: empty rule selector"),
    ("config-ignore-blank-string", pyproject('[tool.jaxlint]\nignore = ["JAX1", " "]\n'), [], "ignore: empty rule selector"),
    ("select-among-good-ones", {}, ["--select", "JAX1,JAX3O2"], "did you mean 'JAX302'"),
    ("config-select-unknown", pyproject('[tool.jaxlint]\nselect = ["JAX9"]\n'), [], "select: unknown rule selector 'JAX9'"),
    ("config-ignore-string", pyproject('[tool.jaxlint]\nignore = "JAX1"\n'), [], "ignore must be a list of rule codes, not a string"),
    ("config-extend-select-unknown", pyproject('[tool.jaxlint]\nextend-select = ["JAX1O4"]\n'), [], "did you mean 'JAX104'"),
    ("config-extend-ignore-number", pyproject("[tool.jaxlint]\nextend-ignore = [101]\n"), [], "holds a number"),
    ("config-exclude-string", pyproject('[tool.jaxlint]\nexclude = "build"\n'), [], "exclude must be a list of glob patterns, not a string"),
    ("config-extend-exclude-table", pyproject("[tool.jaxlint.extend-exclude]\na = 1\n"), [], "extend-exclude must be a list of glob patterns, not a table"),
    ("config-exclude-empty-pattern", pyproject('[tool.jaxlint]\nexclude = [""]\n'), [], "empty pattern"),
    ("config-not-utf8", {"pyproject.toml": b"[tool.jaxlint]\n# caf\xe9\nselect = []\n"}, [], "not valid UTF-8"),
    ("config-tool-not-a-table", pyproject("tool = 3\n"), [], "'tool' must be a table, not a number"),
    ("config-jaxlint-not-a-table", pyproject("[tool]\njaxlint = 3\n"), [], "[tool.jaxlint] must be a table, not a number"),
    ("config-invalid-toml", pyproject("[tool.jaxlint\nselect = []\n"), [], "invalid TOML"),
    ("config-unknown-key", pyproject('[tool.jaxlint]\nselct = ["JAX1"]\n'), [], "did you mean 'select'"),
    ("config-per-file-ignores-list", pyproject('[tool.jaxlint]\nper-file-ignores = ["tests/*"]\n'), [], "per-file-ignores must be a table"),
    ("config-per-file-ignores-string", pyproject('[tool.jaxlint.per-file-ignores]\n"*.py" = "JAX1"\n'), [], "must be a list of rule codes, not a string"),
    ("config-per-file-ignores-unknown", pyproject('[tool.jaxlint.per-file-ignores]\n"*.py" = ["JAX3O1"]\n'), [], "did you mean 'JAX301'"),
    ("config-extra-jit-not-dotted", pyproject('[tool.jaxlint]\nextra-jit-decorators = ["my lib.jit"]\n'), [], "is not a dotted name"),
    ("config-extra-jit-number", pyproject("[tool.jaxlint]\nextra-jit-decorators = 3\n"), [], "must be a list of dotted names, not a number"),
    ("jaxlint-toml-select-unknown", {"jaxlint.toml": 'select = ["JAXX1"]\n'}, [], "jaxlint.toml: select: unknown rule selector"),
    ("nested-config-bad", {"pkg/pyproject.toml": '[tool.jaxlint]\nignore = ["JAX1O1"]\n', "pkg/m.py": BUGGY}, ["."], "pkg/pyproject.toml"),
    ("config-extend-missing", pyproject('[tool.jaxlint]\nextend = "../nope.toml"\n'), [], "pyproject.toml: extend: configuration file not found: ../nope.toml"),
    ("config-extend-self", pyproject('[tool.jaxlint]\nextend = "pyproject.toml"\n'), [], "a cycle of extended files: pyproject.toml -> pyproject.toml"),
    ("config-extend-cycle", {"pyproject.toml": '[tool.jaxlint]\nextend = "base/jaxlint.toml"\n', "base/jaxlint.toml": 'extend = "../pyproject.toml"\n'}, [], "a cycle of extended files: pyproject.toml -> base/jaxlint.toml -> pyproject.toml"),
    ("config-extend-not-a-string", pyproject('[tool.jaxlint]\nextend = ["a.toml"]\n'), [], "extend must be the path of a configuration file, not a list"),
    ("config-extend-bad-base", {"pyproject.toml": '[tool.jaxlint]\nextend = "base.toml"\n', "base.toml": 'select = ["JAX9"]\n'}, [], "base.toml: select: unknown rule selector 'JAX9'"),
    ("config-option-missing-file", {}, ["--config", "nope.toml"], "configuration file not found: nope.toml"),
    ("config-option-folder", {"conf/x": ""}, ["--config", "conf"], "is a folder"),
    ("output-file-onto-folder", {"out/x": ""}, ["-o", "out"], "is a folder"),
    ("output-file-under-a-file", {"blocker": ""}, ["-o", "blocker/report.txt"], "a parent is a file"),
    ("unknown-format", {}, ["--format", "xml"], "unknown format 'xml'"),
    ("explain-unknown-code", {}, ["--explain", "JAX999"], "unknown rule code 'JAX999'"),
    ("baseline-missing", {}, ["--baseline", "nope.json"], "baseline file not found"),
    ("jobs-not-a-number", {}, ["--jobs", "many"], "invalid int value"),
    ("unknown-option", {}, ["--selectt", "JAX1"], "unrecognized arguments"),
]


@pytest.mark.parametrize("files,args,fragment", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_and_exit_2(tmp_path, files, args, fragment):
    (tmp_path / "bad.py").write_text(BUGGY)
    for name, content in files.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content)
    p = jaxlint(["--no-cache", *args] + ([] if "." in args else ["bad.py"]), cwd=str(tmp_path))
    err = p.stderr.decode()
    assert p.returncode == 2, (p.returncode, err)
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("jaxlint: error: "), err
    assert fragment in lines[0], err
    assert p.stdout == b""  # no report of a half-configured run


def test_there_are_at_least_25_cases():
    assert len(CASES) >= 25


def test_output_file_creates_missing_parent_folders(tmp_path):
    (tmp_path / "bad.py").write_text(BUGGY)
    p = jaxlint(["--no-cache", "-o", "reports/deep/out.txt", "bad.py"], cwd=str(tmp_path))
    assert p.returncode == 1, p.stderr.decode()
    assert "JAX102" in (tmp_path / "reports" / "deep" / "out.txt").read_text()


def test_select_all_enables_every_rule_including_opt_in(tmp_path):
    (tmp_path / "bad.py").write_text(BUGGY.replace("return x\n", "return x  # noqa: JAX302\n"))
    p = jaxlint(["--no-cache", "--select", "ALL", "bad.py"], cwd=str(tmp_path))
    got = [line.split()[1] for line in p.stdout.decode().splitlines()]
    assert got == ["JAX102", "JAX004"]
    assert p.returncode == 1
