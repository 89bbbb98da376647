"""Nothing lost, nothing hung: files are written atomically, a file that cannot be written is
reported and the others are still fixed, ``-o`` never empties a source, pathological input has
a bound, and the configuration switches that turn things off do."""

import errno
import os
import stat
import time

import pytest

from clirun import jaxlint
from jaxlint import cli
from jaxlint.config import Config
from jaxlint.engine import lint_source

SRC = """import jax


@jax.jit
def f(x):
    print("x", x)
    return x
"""
FIXED = SRC.replace('print("x", x)', 'jax.debug.print("x {}", x)')


# --- atomic writes ------------------------------------------------------------------------------


def test_a_full_disk_leaves_the_file_untouched(tmp_path, monkeypatch, capsys):
    """The write of the fixed text fails half way (ENOSPC): the file keeps its old bytes, no
    temporary file is left, one line says why, and the run exits 2."""
    from jaxlint import atomic

    (tmp_path / "m.py").write_text(SRC)
    real_fdopen = os.fdopen

    class FullDisk:
        def __init__(self, fh):
            self.fh = fh

        def write(self, data):
            self.fh.write(data[: len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __getattr__(self, name):
            return getattr(self.fh, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()
            return False

    monkeypatch.setattr(atomic.os, "fdopen", lambda fd, mode: FullDisk(real_fdopen(fd, mode)))
    monkeypatch.chdir(tmp_path)
    status = cli.main(["--no-cache", "--isolated", "--fix", "m.py"])
    err = capsys.readouterr().err
    assert status == 2
    assert (tmp_path / "m.py").read_text() == SRC
    assert sorted(os.listdir(tmp_path)) == ["m.py"]
    assert [line for line in err.splitlines() if "m.py" in line] == [
        "jaxlint: error: m.py: cannot write the fixed file, left unchanged: No space left on device"
    ]


def test_a_read_only_file_is_reported_and_the_others_are_fixed(tmp_path):
    # Tests run as root, who may write any file; jaxlint refuses a file without write bits
    # itself (read-only means "do not change this"), so chmod is a faithful test even here.
    (tmp_path / "a.py").write_text(SRC)
    (tmp_path / "b.py").write_text(SRC)
    os.chmod(tmp_path / "a.py", 0o444)
    p = jaxlint(["--no-cache", "--isolated", "--fix", "a.py", "b.py"], cwd=str(tmp_path))
    assert (tmp_path / "a.py").read_text() == SRC
    assert (tmp_path / "b.py").read_text() == FIXED
    assert p.returncode == 2
    assert p.stderr.decode().splitlines()[0] == "jaxlint: error: a.py: cannot write the fixed file, left unchanged: the file is read-only"
    assert stat.S_IMODE(os.stat(tmp_path / "a.py").st_mode) == 0o444


def test_a_fix_keeps_mode_line_endings_encoding_and_links(tmp_path):
    source = "# -*- coding: latin-1 -*-\r\nimport jax\r\n\r\n\r\n@jax.jit\r\ndef f(x):\r\n    print('caf\xe9', x)\r\n    return x\r\n"
    (tmp_path / "m.py").write_bytes(source.encode("latin-1"))
    os.chmod(tmp_path / "m.py", 0o751)
    os.symlink("m.py", tmp_path / "link.py")
    p = jaxlint(["--no-cache", "--isolated", "--fix", "link.py"], cwd=str(tmp_path))
    assert p.returncode == 0, p.stderr.decode()
    assert os.path.islink(tmp_path / "link.py")
    assert (tmp_path / "m.py").read_bytes() == source.replace("print('caf\xe9', x)", 'jax.debug.print("caf\xe9 {}", x)').encode("latin-1")
    assert stat.S_IMODE(os.stat(tmp_path / "m.py").st_mode) == 0o751
    assert sorted(os.listdir(tmp_path)) == ["link.py", "m.py"]


def test_output_file_naming_an_input_is_refused(tmp_path):
    (tmp_path / "m.py").write_text(SRC)
    for args in (["m.py", "-o", "m.py"], [".", "--output-file", "./m.py"]):
        p = jaxlint(["--no-cache", "--isolated", *args], cwd=str(tmp_path))
        assert p.returncode == 2
        assert p.stderr.decode() == "jaxlint: error: cannot write the report to " + args[-1] + ": it is one of the files being linted\n"
        assert (tmp_path / "m.py").read_text() == SRC


def test_the_report_is_written_after_linting(tmp_path):
    (tmp_path / "m.py").write_text(SRC)
    (tmp_path / "report.txt").write_text("old report\n")
    p = jaxlint(["--no-cache", "--isolated", "m.py", "-o", "out/report.txt"], cwd=str(tmp_path))
    assert p.returncode == 1
    assert (tmp_path / "out" / "report.txt").read_text().startswith("m.py:6:5: JAX302 ")
    assert sorted(os.listdir(tmp_path / "out")) == ["report.txt"]


# --- pathological input -------------------------------------------------------------------------


def _chain(n):
    return "import jax\nx = " + " + ".join(["1"] * n) + "\n"


# Enough small functions that linting them takes several times the budget below on a fast, idle
# machine (8,000 took about one second there; 5,000 take 0.6 s against a budget of 0.1 s).
SLOW_FUNCTIONS = 5000
SLOW_BUDGET = "0.1"


def _many_functions(n):
    return "import jax\n" + "".join(f"def f{i}(x):\n    return x + {i}\n" for i in range(n))


@pytest.mark.parametrize("terms", [8000, 30000])  # about 32 KB and 120 KB
def test_a_long_operator_chain_is_refused_in_under_a_second(terms):
    # LibCST used to crash (SIGSEGV) on the first and run for minutes on the second.
    start = time.perf_counter()
    findings = lint_source(_chain(terms), "chain.py", Config()).findings
    elapsed = time.perf_counter() - start
    assert [(f.line, f.column, f.code, f.message) for f in findings] == [
        (
            2,
            4007,
            "JAX001",
            "expression too deeply nested to analyse (more than 1000 operators in one chain); "
            "CPython cannot compile it either (RecursionError: too deeply nested)",
        )
    ]
    assert elapsed < 1.0


def test_a_chain_over_many_lines_and_the_other_files_of_the_run(tmp_path):
    (tmp_path / "long.py").write_text("import jax\nx = (1\n" + "    + 1\n" * 3000 + ")\n")
    (tmp_path / "m.py").write_text(SRC)
    p = jaxlint(["--no-cache", "--isolated", "long.py", "m.py"], cwd=str(tmp_path), timeout=60)
    assert p.returncode == 1
    assert p.stdout.decode().splitlines() == [
        "long.py:1003:5: JAX001 expression too deeply nested to analyse (more than 1000 operators in one chain); "
        "CPython cannot compile it either (RecursionError: too deeply nested)",
        'm.py:6:5: JAX302 [*] `print()` of traced value `x` in jitted f() runs only while tracing and shows a tracer, not its value',
    ]


def test_chains_python_compiles_are_not_said_to_fail_there():
    src = "import jax\nok = " + " and ".join(["x"] * 1500) + "\n"
    compile(src, "m.py", "exec")
    (f,) = lint_source(src, "m.py", Config()).findings
    assert f.message == "expression too deeply nested to analyse (more than 1000 operators in one chain)"


@pytest.mark.slow  # large inputs
def test_ordinary_long_data_is_not_a_chain():
    # Flat tables (commas between the terms) of negative numbers and strings are not nesting;
    # nor is a long run of adjacent string literals (LibCST parses it in linear time), nor the
    # dots of attribute access along a chain of 600 terms.
    src = (
        "import jax\nTABLE = [" + ", ".join(f"-{i} * 2" for i in range(5000)) + "]\n"
        "NAMES = ['" + "', '".join("ab" for _ in range(5000)) + "']\n"
        "TEXT = (\n" + "".join("    'line'\n" for _ in range(3000)) + ")\n"
        "def total(self):\n    return " + " + ".join(["self.params.w"] * 600) + "\n"
    )
    assert lint_source(src, "m.py", Config()).findings == []


def test_a_file_over_its_time_budget_is_reported_and_the_run_goes_on(tmp_path):
    # Small functions: no bound refuses them, and linting them takes several times the budget on
    # any machine (the alarm is wall-clock time, so a busy machine only makes it fire sooner).
    (tmp_path / "slow.py").write_text(_many_functions(SLOW_FUNCTIONS))
    (tmp_path / "m.py").write_text(SRC)
    p = jaxlint(["--no-cache", "--isolated", "-j", "1", "slow.py", "m.py"], cwd=str(tmp_path), JAXLINT_FILE_TIME_BUDGET=SLOW_BUDGET)
    assert p.stdout.decode().splitlines() == [
        "m.py:6:5: JAX302 [*] `print()` of traced value `x` in jitted f() runs only while tracing and shows a tracer, not its value",
        "slow.py:1:1: JAX002 internal error while analysing this file: linting this file took longer than its time budget "
        "of 0.1 s (JAXLINT_FILE_TIME_BUDGET)",
    ]


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="the memory budget reads /proc, which only Linux has")
def test_a_file_over_its_memory_budget_is_reported_and_the_run_goes_on(tmp_path):
    # The tree and the analysis of 5,000 functions take tens of megabytes, five times the budget.
    (tmp_path / "big.py").write_text(_many_functions(SLOW_FUNCTIONS))
    (tmp_path / "m.py").write_text(SRC)
    p = jaxlint(
        ["--no-cache", "--isolated", "-j", "1", "big.py", "m.py"],
        cwd=str(tmp_path),
        JAXLINT_FILE_MEMORY_BUDGET="5",
        JAXLINT_FILE_TIME_BUDGET="0",
    )
    assert p.stdout.decode().splitlines() == [
        "big.py:1:1: JAX002 internal error while analysing this file: linting this file took more memory than its budget "
        "of 5 MB (JAXLINT_FILE_MEMORY_BUDGET)",
        "m.py:6:5: JAX302 [*] `print()` of traced value `x` in jitted f() runs only while tracing and shows a tracer, not its value",
    ]


@pytest.mark.slow  # large inputs
def test_a_result_over_budget_is_not_cached(tmp_path):
    (tmp_path / "slow.py").write_text(_many_functions(SLOW_FUNCTIONS))
    args = ["--isolated", "--cache-dir", str(tmp_path / "cache"), "slow.py"]
    first = jaxlint(args, cwd=str(tmp_path), JAXLINT_FILE_TIME_BUDGET=SLOW_BUDGET)
    assert "JAX002" in first.stdout.decode()
    again = jaxlint(args, cwd=str(tmp_path), JAXLINT_FILE_TIME_BUDGET="0")
    assert (again.returncode, again.stdout.decode()) == (0, "")


# --- switches that turn things off ----------------------------------------------------------------


def test_ignore_all_in_the_configuration_ignores_everything(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nignore = ["ALL"]\n')
    (tmp_path / "m.py").write_text(SRC)
    p = jaxlint(["--no-cache", "m.py"], cwd=str(tmp_path))
    assert (p.returncode, p.stdout.decode()) == (0, "")
    # A rule selected on top of it runs.
    p = jaxlint(["--no-cache", "--extend-select", "JAX302", "m.py"], cwd=str(tmp_path))
    assert p.returncode == 1 and p.stdout.decode().startswith("m.py:6:5: JAX302 ")


def test_force_exclude_applies_to_the_stdin_filename(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nexclude = ["generated"]\n')
    args = ["--no-cache", "--force-exclude", "--stdin-filename", "generated/m.py"]
    p = jaxlint(args, cwd=str(tmp_path), stdin=SRC.encode())
    assert (p.returncode, p.stdout.decode()) == (0, "")
    # An editor piping its buffer through --fix gets it back unchanged, never emptied.
    p = jaxlint([*args, "--fix"], cwd=str(tmp_path), stdin=SRC.encode())
    assert (p.returncode, p.stdout.decode()) == (0, SRC)
    # Without --force-exclude the name is linted as given.
    p = jaxlint(["--no-cache", "--stdin-filename", "generated/m.py"], cwd=str(tmp_path), stdin=SRC.encode())
    assert p.returncode == 1 and p.stdout.decode().startswith("generated/m.py:6:5: JAX302 ")
