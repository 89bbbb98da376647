"""--statistics, --output-file, --quiet, colour and --stdin-filename, through the real command."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys

import pytest

from clirun import ROOT, env, jaxlint

# JAX101 (traced `if`) is in preview: the command lines here lint with --preview.
SRC = """\
import jax


@jax.jit
def f(x, y):
    if x > 0:
        x = -x
    if y > 0:
        y = -y
    while x > y:
        x = x - 1
    return x
"""

LINES = [
    "m.py:6:8: JAX101 Python `if` on traced value `x` in jitted f()",
    "m.py:8:8: JAX101 Python `if` on traced value `y` in jitted f()",
    "m.py:10:11: JAX102 Python `while` condition depends on traced value `x` in jitted f()",
]
STATS = "2\tJAX101\ttraced-if\n1\tJAX102\ttraced-while\n"


@pytest.fixture
def proj(tmp_path):
    (tmp_path / "m.py").write_text(SRC)
    return tmp_path


def test_plain_run(proj):
    p = jaxlint(["--preview", "m.py"], cwd=str(proj))
    assert p.returncode == 1
    assert p.stdout.decode() == "\n".join(LINES) + "\n"
    assert p.stderr.decode() == "Found 3 findings in 1 file (1 checked).\nNo fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).\n"


def test_statistics(proj):
    # The table only, as ruff prints it: no line per finding.
    p = jaxlint(["--preview", "--statistics", "m.py"], cwd=str(proj))
    assert p.stdout.decode() == STATS
    # The fixable column appears once some code can be fixed (here: one `if`, by an unsafe fix).
    p = jaxlint(["--preview", "--statistics", "--unsafe-fixes", "m.py"], cwd=str(proj))
    assert p.stdout.decode() == "2\tJAX101\t[*] traced-if\n1\tJAX102\t[ ] traced-while\n"
    p = jaxlint(["--preview", "--statistics", "--output-format", "full", "m.py"], cwd=str(proj))
    assert p.stdout.decode() == STATS
    # With a machine format on standard output, the counts go to standard error.
    p = jaxlint(["--preview", "--statistics", "--format", "json", "m.py"], cwd=str(proj))
    assert len(json.loads(p.stdout)) == 3
    assert p.stderr.decode() == STATS + "Found 3 findings in 1 file (1 checked).\n"


def test_output_file_and_quiet(proj):
    p = jaxlint(["--preview", "--quiet", "--output-file", "report.txt", "--statistics", "m.py"], cwd=str(proj))
    assert p.returncode == 1
    assert p.stdout == b""
    assert p.stderr == b""  # --quiet drops the summary line
    assert (proj / "report.txt").read_text() == STATS  # the report is the table
    p = jaxlint(["--preview", "--quiet", "--output-file", "report.txt", "m.py"], cwd=str(proj))
    assert (proj / "report.txt").read_text() == "\n".join(LINES) + "\n"
    p = jaxlint(["--preview", "-q", "m.py"], cwd=str(proj))
    assert (p.returncode, p.stderr) == (1, b"")


def test_quiet_clean_run_prints_nothing(tmp_path):
    (tmp_path / "ok.py").write_text("import jax\n\n\n@jax.jit\ndef f(x):\n    return x + 1\n")
    p = jaxlint(["-q", "ok.py"], cwd=str(tmp_path))
    assert (p.returncode, p.stdout, p.stderr) == (0, b"", b"")


# --- colour ---------------------------------------------------------------------------------------


def run_on_tty(args, cwd, **extra_env):
    """Run jaxlint with standard output on a pseudo-terminal; return (exit code, what it wrote)."""
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "jaxlint", "--preview", *args],
            cwd=cwd,
            stdout=slave,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            env=env(**extra_env),
        )
        os.close(slave)
        slave = None
        chunks = []
        while True:
            r, _, _ = select.select([master], [], [], 60)
            if not r:
                break
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        rc = proc.wait(timeout=60)
    finally:
        os.close(master)
        if slave is not None:
            os.close(slave)
    return rc, b"".join(chunks).decode()


@pytest.mark.slow  # a real process on a pseudo-terminal
def test_colour_on_a_terminal(proj):
    rc, out = run_on_tty(["m.py"], str(proj))
    assert rc == 1
    assert "\x1b[1;31mJAX101\x1b[0m" in out
    # The full format is the default on a terminal: each code in red on its headline and under
    # its caret (all three are errors), with the fix advice.
    assert out.count("\x1b[1;31m") == 6
    assert out.count("help") == 3
    rc, out = run_on_tty(["--output-format", "concise", "m.py"], str(proj))
    assert rc == 1
    assert out.count("\x1b[1;31m") == 3 and "help" not in out


@pytest.mark.parametrize(
    "args,extra",
    [
        ([], {"NO_COLOR": "1"}),
        (["--no-color"], {}),
        (["--no-color"], {"FORCE_COLOR": "1"}),
        (["--output-file", "out.txt"], {}),
    ],
)
@pytest.mark.slow  # a real process on a pseudo-terminal
def test_no_colour_on_a_terminal_when_asked(proj, args, extra):
    rc, out = run_on_tty([*args, "m.py"], str(proj), **extra)
    assert rc == 1
    assert "\x1b" not in out
    if "--output-file" in args:
        assert (proj / "out.txt").read_text() == "\n".join(LINES) + "\n"


@pytest.mark.slow  # a real process on a pseudo-terminal
def test_empty_no_color_does_not_disable(proj):
    # NO_COLOR disables colour only when it is set to a non-empty value (no-color.org).
    rc, out = run_on_tty(["m.py"], str(proj), NO_COLOR="")
    assert "\x1b[1;31m" in out


def test_never_colour_in_a_pipe(proj):
    p = jaxlint(["--preview", "m.py"], cwd=str(proj))
    assert b"\x1b" not in p.stdout + p.stderr
    p = jaxlint(["--preview", "--show-advice", "--show-fixes", "--statistics", "m.py"], cwd=str(proj))
    assert b"\x1b" not in p.stdout + p.stderr


def test_colour_forced_in_a_pipe(proj):
    assert b"\x1b[1;31mJAX101" in jaxlint(["--preview", "--color", "m.py"], cwd=str(proj)).stdout
    assert b"\x1b[1;31mJAX101" in jaxlint(["--preview", "m.py"], cwd=str(proj), FORCE_COLOR="1").stdout
    # An explicit --color wins over NO_COLOR.
    assert b"\x1b[1;31mJAX101" in jaxlint(["--preview", "--color", "m.py"], cwd=str(proj), NO_COLOR="1").stdout


def test_machine_formats_never_coloured(proj):
    for fmt in ("json", "sarif", "rdjson", "gitlab", "github"):
        p = jaxlint(["--preview", "--color", "--format", fmt, "m.py"], cwd=str(proj))
        assert b"\x1b" not in p.stdout, fmt


# --- standard input -------------------------------------------------------------------------------


def test_stdin_filename(proj):
    p = jaxlint(["--preview", "--stdin-filename", "pkg/mod.py"], cwd=str(proj), stdin=SRC.encode())
    assert p.returncode == 1
    assert p.stdout.decode() == "\n".join(line.replace("m.py", "pkg/mod.py") for line in LINES) + "\n"
    assert p.stderr.decode() == "Found 3 findings in 1 file (1 checked).\nNo fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).\n"
    # '-' without a name reports "-"; noqa works on standard input too.
    src = SRC.replace("    if y > 0:\n", "    if y > 0:  # noqa: JAX101\n")
    p = jaxlint(["--preview", "-"], cwd=str(proj), stdin=src.encode())
    assert [line.split(":")[0:2] for line in p.stdout.decode().splitlines()] == [["-", "6"], ["-", "10"]]


def test_stdin_filename_applies_per_file_ignores(proj):
    (proj / "pyproject.toml").write_text('[tool.jaxlint.per-file-ignores]\n"tests/*" = ["JAX101"]\n')
    p = jaxlint(["--preview", "--stdin-filename", "tests/test_m.py"], cwd=str(proj), stdin=SRC.encode())
    assert p.stdout.decode() == "tests/test_m.py:10:11: JAX102 Python `while` condition depends on traced value `x` in jitted f()\n"


def test_stdin_machine_formats_use_the_piped_text_not_the_file_on_disk(proj):
    # The editor's buffer (piped in) has two extra lines and a non-ASCII prefix; the saved file differs.
    buffer = SRC.replace("    if x > 0:\n", "    s = 'ü日本'\n\n    t = 'é'; _ = s if x > 0 else t\n    if x > 0:\n")
    p = jaxlint(["--preview", "--stdin-filename", "m.py", "--format", "rdjson"], cwd=str(proj), stdin=buffer.encode())
    diags = json.loads(p.stdout)["diagnostics"]
    ternary = [d for d in diags if d["location"]["range"]["start"]["line"] == 8]
    assert len(ternary) == 1
    col = ternary[0]["location"]["range"]["start"]["column"]
    line8 = buffer.splitlines()[7].encode()
    assert line8[col - 1 :].startswith(b"x > 0 else t") and col == 24  # 23 bytes before it: "é" is two
    # Fingerprints too: the same buffer gives the same fingerprints as the same text saved to disk.
    s1 = json.loads(jaxlint(["--preview", "--stdin-filename", "m.py", "--format", "sarif"], cwd=str(proj), stdin=buffer.encode()).stdout)
    (proj / "m.py").write_text(buffer)
    s2 = json.loads(jaxlint(["--preview", "--format", "sarif", "m.py"], cwd=str(proj)).stdout)
    fp = lambda log: [r["partialFingerprints"] for r in log["runs"][0]["results"]]  # noqa: E731
    assert fp(s1) == fp(s2) and len(fp(s1)) == 4


def test_help_lists_every_option_of_this_face():
    p = jaxlint(["--help"], cwd=ROOT)
    out = p.stdout.decode()
    for opt in ("--statistics", "--output-file", "--quiet", "--color", "--no-color", "--stdin-filename", "--diff",
                "--baseline", "--write-baseline", "github", "sarif", "rdjson", "gitlab"):
        assert opt in out, opt


def test_package_context_reports_cross_module_findings_of_the_named_files_only():
    """What the pre-commit hook runs: a commit that stages only the helper module still gets the
    findings there that come from the jitted caller in another module of its package."""
    from clirun import jaxlint_json

    def found(args):
        return sorted((f["path"], f["line"], f["column"], f["code"]) for f in jaxlint_json(["--no-cache", "--preview", *args], cwd=os.path.join(ROOT, "fixtures")))

    helper = "solver_pkg/metrics.py"
    assert found([helper]) == []
    assert found(["--package-context", helper]) == [
        ("solver_pkg/metrics.py", 7, 8, "JAX101"),
        ("solver_pkg/metrics.py", 13, 12, "JAX104"),
    ]
    # The entry module alone: its package is read, but the findings are in metrics.py.
    assert found(["--package-context", "solver_pkg/train.py"]) == []
    # Every module named: what `jaxlint solver_pkg` reports.
    assert found(["--package-context", "solver_pkg/train.py", helper, "solver_pkg/schedule.py"]) == found(["solver_pkg"])
