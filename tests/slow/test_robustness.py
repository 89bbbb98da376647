"""No input breaks jaxlint: generated programs, mutated fixtures, pathological files.

For every input the engine returns findings, or exactly one JAX001 (the file cannot be read,
decoded or parsed); never an exception and never JAX002 (an internal error is a jaxlint bug).

The property tests run a bounded number of examples in CI.  To run thousands locally::

    JAXLINT_FUZZ_EXAMPLES=5000 python -m pytest tests/slow/test_robustness.py -k fuzz

(``JAXLINT_FUZZ_EXAMPLES`` is the number of examples per property test; the default is small
enough for the whole file to stay under two minutes on two cores.)
"""

from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clirun import ROOT, env, jaxlint
from fixture_units import rule_config
from jaxlint import lint_source
from jaxlint.engine.pipeline import read_and_lint
from jaxlint.rules import ALL_RULES

# -- the invariant ----------------------------------------------------------------------------


UNFILLED_FIELD = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")


def check_result(findings, source) -> None:
    codes = [f.code for f in findings]
    assert "JAX002" not in codes, f"internal error {[f.message for f in findings if f.code == 'JAX002']} on:\n{source!r}"
    if "JAX001" in codes:
        assert codes == ["JAX001"], f"JAX001 must be the only finding, got {codes} on:\n{source!r}"
    for f in findings:
        assert f.line >= 1 and f.column >= 1 and f.end_line >= f.line, f
        # no template field left unfilled (``{var}``); a syntax error may quote a real brace
        assert f.message and not UNFILLED_FIELD.search(f.message), f.message


def lint_checked(source, path="fuzz.py"):
    # Every rule, preview included: robustness is every rule's.
    findings = lint_source(source, path, rule_config()).findings
    check_result(findings, source)
    return findings


# -- hypothesis settings: a profile, bounded in CI, switchable locally -----------------------

FUZZ_EXAMPLES = int(os.environ.get("JAXLINT_FUZZ_EXAMPLES", "0") or 0)
settings.register_profile(
    "jaxlint-fuzz",
    max_examples=FUZZ_EXAMPLES or 60,
    deadline=None,
    derandomize=not FUZZ_EXAMPLES,  # CI: the same examples every run; locally: new ones
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    print_blob=True,
)
FUZZ = settings.get_profile("jaxlint-fuzz")


def fuzz_settings(ci_examples: int):
    return settings(FUZZ, max_examples=FUZZ_EXAMPLES or ci_examples)


# -- generated programs -------------------------------------------------------------------------

import hypothesmith  # noqa: E402 - a test dependency (pyproject: test extra)

DEF_RE = re.compile(r"^([ \t]*)(async[ \t]+)?def[ \t]", re.MULTILINE)
JAX_DECORATORS = [
    "@jax.jit",
    "@jit",
    "@partial(jax.jit, static_argnums=(0,))",
    "@partial(jax.jit, static_argnames=('x', 'nope'))",
    "@jax.vmap",
    "@jax.checkpoint",
    "@jax.grad",
    "@eqx.filter_jit",
]
PRELUDE = "import jax\nfrom jax import jit\nfrom functools import partial\nimport equinox as eqx\n"


def with_decorators(src: str, decorator: str) -> str:
    """Put ``decorator`` before every ``def`` line (same indentation)."""
    return DEF_RE.sub(lambda m: f"{m.group(1)}{decorator}\n{m.group(0)}", src)


# Generated programs are often odd but valid Python that CPython warns about while compiling
# (``1()``: "'int' object is not callable"); the warning is about the input, not jaxlint.
quiet_syntax_warnings = pytest.mark.filterwarnings("ignore::SyntaxWarning")
# Fuzzing takes its time; the rest of this file is quick.
fuzz = pytest.mark.slow
# Building the grammar's parser takes seconds: deferred to the first draw, so that collecting
# this file (for any test run) does not pay it.
python_programs = st.deferred(lambda: hypothesmith.from_grammar())


@fuzz_settings(100)
@fuzz
@quiet_syntax_warnings
@given(python_programs)
def test_fuzz_generated_programs(src):
    lint_checked("import jax\n" + src)


@fuzz_settings(100)
@fuzz
@quiet_syntax_warnings
@given(python_programs, st.sampled_from(JAX_DECORATORS))
def test_fuzz_generated_programs_jitted(src, decorator):
    lint_checked(PRELUDE + with_decorators(src, decorator))


# -- mutated fixtures and rule examples -------------------------------------------------------


def _corpus():
    texts = []
    for path in sorted(glob.glob(os.path.join(ROOT, "fixtures", "**", "*.py"), recursive=True)):
        with open(path, encoding="utf-8") as fh:
            texts.append(fh.read())
    for rule in ALL_RULES:
        for ex in list(rule.bad) + list(rule.good):
            texts.append(textwrap.dedent(ex).lstrip("\n"))
    return [t for t in texts if "jax" in t]


CORPUS = _corpus()
TOKEN_RE = re.compile(r"\w+|[^\w\s]+")


@st.composite
def mutated(draw):
    text = draw(st.sampled_from(CORPUS))
    for _ in range(draw(st.integers(1, 3))):
        lines = text.splitlines(keepends=True) or ["\n"]
        op = draw(st.sampled_from(["delete", "duplicate", "swap_tokens", "indent", "dedent", "tab", "truncate"]))
        i = draw(st.integers(0, len(lines) - 1))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap_tokens":
            toks = list(TOKEN_RE.finditer(text))
            if len(toks) >= 2:
                a, b = sorted(draw(st.lists(st.integers(0, len(toks) - 1), min_size=2, max_size=2, unique=True)))
                ta, tb = toks[a], toks[b]
                text = text[: ta.start()] + tb.group() + text[ta.end() : tb.start()] + ta.group() + text[tb.end() :]
                continue
        elif op == "indent":
            lines[i] = " " * draw(st.integers(1, 5)) + lines[i]
        elif op == "dedent":
            lines[i] = lines[i].lstrip(" \t")
        elif op == "tab":
            lines[i] = re.sub(r"^ {1,8}", "\t", lines[i])
        elif op == "truncate":
            text = text[: draw(st.integers(0, len(text)))]
            continue
        text = "".join(lines)
    return text


def test_mutation_corpus_is_not_empty():
    # The fixtures and the rule examples: the mutation tests below start from these.
    assert len(CORPUS) >= 2 * (len(ALL_RULES) - 2)


@fuzz_settings(250)
@fuzz
@quiet_syntax_warnings
@given(mutated())
def test_fuzz_mutated_fixtures(src):
    lint_checked(src)


@fuzz_settings(50)
@fuzz
@quiet_syntax_warnings
@given(mutated(), st.sampled_from(["utf-8", "utf-8-sig", "latin-1"]), st.sampled_from(["\n", "\r\n", "\r"]))
def test_fuzz_mutated_fixtures_as_bytes(src, encoding, newline):
    data = src.replace("\n", newline).encode(encoding, errors="replace")
    lint_checked(data)


# -- pathological files, linted in-process -----------------------------------------------------

RELU = "@jax.jit\ndef relu(x):\n    if x > 0:\n        return x\n    return -x\n"
RELU_FINDING = ("JAX101", "Python `if` on traced value `x` in jitted relu()")


def summary(findings):
    return [(f.line, f.column, f.code, f.message) for f in findings]


def test_empty_file():
    assert lint_checked(b"") == []
    assert lint_checked("") == []


def test_nul_bytes():
    # With or without a mention of jax: NUL bytes are never Python source.
    assert summary(lint_checked(b"\x00" * 4096)) == [(1, 1, "JAX001", "file contains a NUL byte")]
    assert summary(lint_checked(b"import jax\n\x00\n")) == [(1, 1, "JAX001", "file contains a NUL byte")]


def test_latin1_without_coding_cookie():
    data = "import jax\nname = 'café'\n".encode("latin-1")
    assert summary(lint_checked(data)) == [
        (
            1,
            1,
            "JAX001",
            "cannot decode file: 'utf-8' codec can't decode byte 0xe9 in position 22: invalid continuation byte",
        )
    ]
    # With the cookie, the same bytes are fine.
    cookie = b"# -*- coding: latin-1 -*-\n" + data + RELU.encode()
    assert summary(lint_checked(cookie)) == [(6, 8, *RELU_FINDING)]


def test_utf8_bom_keeps_columns():
    data = b"\xef\xbb\xbfimport jax\n" + RELU.encode()
    assert summary(lint_checked(data)) == [(4, 8, *RELU_FINDING)]


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "cr"])
def test_line_endings(newline):
    data = ("import jax\n" + RELU).replace("\n", newline).encode()
    assert summary(lint_checked(data)) == [(4, 8, *RELU_FINDING)]


def test_form_feeds():
    src = "import jax\n\x0c\n" + RELU + "\x0c\n\n\x0c@jax.jit\ndef g(x):\n    return float(x)\n"
    assert summary(lint_checked(src)) == [
        (5, 8, *RELU_FINDING),
        (12, 12, "JAX104", "`float()` needs a concrete value but `x` is traced in jitted g()"),
    ]


def test_tabs_and_spaces():
    # One function indented with tabs, the next with spaces: valid Python, both linted.
    consistent = "import jax\n" + RELU.replace("    ", "\t") + "\n\n@jax.jit\ndef g(x):\n    return float(x)\n"
    assert summary(lint_checked(consistent)) == [
        (4, 5, *RELU_FINDING),
        (11, 12, "JAX104", "`float()` needs a concrete value but `x` is traced in jitted g()"),
    ]
    # Tabs and spaces mixed inside one block: Python raises TabError; one JAX001.
    mixed = "import jax\n@jax.jit\ndef relu(x):\n    if x > 0:\n\treturn x\n    return -x\n"
    with pytest.raises(TabError):
        compile(mixed, "mixed.py", "exec")
    # Reported where Python's parser stops: the line indented with a tab.
    assert summary(lint_checked(mixed)) == [
        (5, 1, "JAX001", "syntax error: inconsistent use of tabs and spaces in indentation")
    ]


NESTED_500 = {
    "binary": lambda n: " + ".join(["x"] * n),
    "unary": lambda n: "-" * n + "x",
    "not": lambda n: "not " * n + "x",
    "ternary": lambda n: "x if x else " * (n - 1) + "x",
    "power": lambda n: " ** ".join(["x"] * n),
    "subscript": lambda n: "x" + "[0]" * n,
}


@pytest.mark.slow  # large inputs
@pytest.mark.parametrize("kind", sorted(NESTED_500))
def test_expression_nested_500_levels(kind):
    src = "import jax\n\n@jax.jit\ndef f(x):\n    if " + NESTED_500[kind](500) + ":\n        return x\n    return x\n"
    findings = lint_checked(src)
    assert (5, 8, "JAX101", "Python `if` on traced value `x` in jitted f()") in summary(findings)


@pytest.mark.parametrize("depth", [200, 201, 500, 5000])
def test_brackets_nested_deeper_than_python_allows(depth):
    # CPython refuses more than 200 nested brackets; LibCST's parser would overflow the C stack
    # at a few thousand, so the engine refuses them before parsing.  (5000 used to crash the
    # process with SIGSEGV.)
    src = "import jax\ny = " + "(" * depth + "x" + ")" * depth + "\n"
    findings = lint_checked(src)
    if depth <= 200:
        compile(src, "ok.py", "exec")
        assert findings == []
    else:
        assert summary(findings) == [(2, 205, "JAX001", "too many nested parentheses (more than 200 levels)")]


def test_deep_brackets_inside_strings_are_not_nesting():
    src = "import jax\ny = '" + "(" * 5000 + "'\n# " + "[" * 5000 + "\n" + RELU
    assert summary(lint_checked(src)) == [(6, 8, *RELU_FINDING)]


def test_two_megabyte_single_line():
    # One 2 MB line with a finding at its far end: the column is exact.
    blob = "a" * (2 * 1024 * 1024)
    src = f'import jax; blob = "{blob}"; f = jax.jit(lambda x: float(x))\n'
    column = src.index("float(") + 1
    assert column > 2 * 1024 * 1024
    assert summary(lint_checked(src)) == [
        (1, column, "JAX104", "`float()` needs a concrete value but `x` is traced in jitted <lambda>()")
    ]


def test_unreadable_file_in_process(tmp_path, monkeypatch):
    # Tests often run as root, whom file modes do not stop: simulate the OS refusing to open.
    target = tmp_path / "secret.py"
    target.write_text("import jax\n" + RELU)
    real_open = os.open

    def refusing_open(path, *args, **kwargs):
        if os.fspath(path) == str(target):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)
    assert summary(read_and_lint(str(target), "secret.py", rule_config()).findings) == [
        (1, 1, "JAX001", "cannot read file: Permission denied")
    ]


def test_fifo_read_directly_does_not_block(tmp_path):
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    start = time.monotonic()
    assert summary(read_and_lint(str(fifo), "pipe.py", rule_config()).findings) == [
        (1, 1, "JAX001", "cannot read file: not a regular file (a named pipe)")
    ]
    assert time.monotonic() - start < 5


# -- the command line on trees with one bad file among good ones ------------------------------

GOOD = b"import jax\n\n\n@jax.jit\ndef f(x):\n    return float(x)\n"
GOOD_LINE = "{}:6:12: JAX104 `float()` needs a concrete value but `x` is traced in jitted f()"


def make_tree(root, files):
    for name, data in files.items():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(data)


def run_cli(args, cwd, timeout=60):
    p = jaxlint(["--no-cache", "--no-color", "--preview", *args], cwd=str(cwd), timeout=timeout)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


BAD_FILES = {
    "nul.py": (b"\x00" * 4096, "nul.py:1:1: JAX001 file contains a NUL byte"),
    "latin1.py": (
        "import jax\nname = 'café'\n".encode("latin-1"),
        "latin1.py:1:1: JAX001 cannot decode file: 'utf-8' codec can't decode byte 0xe9 in position 22: "
        "invalid continuation byte",
    ),
    "mixed_tabs.py": (
        b"import jax\n@jax.jit\ndef relu(x):\n    if x > 0:\n\treturn x\n    return -x\n",
        "mixed_tabs.py:5:1: JAX001 syntax error: inconsistent use of tabs and spaces in indentation",
    ),
    "deep.py": (
        b"import jax\ny = " + b"(" * 5000 + b"x" + b")" * 5000 + b"\n",
        "deep.py:2:205: JAX001 too many nested parentheses (more than 200 levels)",
    ),
    "bom_cr.py": (
        b"\xef\xbb\xbfimport jax\r" + RELU.replace("\n", "\r").encode(),
        "bom_cr.py:4:8: JAX101 Python `if` on traced value `x` in jitted relu()",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_cli_bad_file_among_good_ones(tmp_path, name):
    data, line = BAD_FILES[name]
    make_tree(tmp_path, {"a_good.py": GOOD, name: data, "z_good.py": GOOD, "empty.py": b""})
    rc, out, err = run_cli(["."], tmp_path)
    assert out.splitlines() == sorted([GOOD_LINE.format("a_good.py"), line, GOOD_LINE.format("z_good.py")])
    # bom_cr.py's `if` has an unsafe fix (jnp.where): the summary says it is there.
    hidden = "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).\n" if name == "bom_cr.py" else ""
    assert err == "Found 3 findings in 3 files (4 checked).\n" + hidden
    assert rc == 1


def test_cli_empty_file_alone(tmp_path):
    make_tree(tmp_path, {"empty.py": b""})
    assert run_cli(["."], tmp_path) == (0, "", "All checks passed (1 file checked).\n")


def test_cli_directory_symlink_loop(tmp_path):
    make_tree(tmp_path, {"pkg/mod.py": GOOD, "pkg/sub/inner.py": GOOD})
    os.symlink("..", tmp_path / "pkg" / "sub" / "up")  # pkg/sub/up -> pkg: a loop
    os.symlink(".", tmp_path / "pkg" / "here")  # pkg/here -> pkg: another
    os.symlink("self.py", tmp_path / "pkg" / "self.py")  # a file link to itself
    rc, out, err = run_cli(["."], tmp_path, timeout=30)
    assert out.splitlines() == [
        GOOD_LINE.format("pkg/mod.py"),
        "pkg/self.py:1:1: JAX001 cannot read file: Too many levels of symbolic links",
        GOOD_LINE.format("pkg/sub/inner.py"),
    ]
    assert err == "Found 3 findings in 3 files (3 checked).\n"
    assert rc == 1


def test_cli_fifo_in_a_folder_is_never_opened(tmp_path):
    make_tree(tmp_path, {"a.py": GOOD})
    os.mkfifo(tmp_path / "pipe.py")  # nobody ever writes: opening it would block forever
    rc, out, err = run_cli(["."], tmp_path, timeout=30)
    assert (rc, out, err) == (1, GOOD_LINE.format("a.py") + "\n", "Found 1 finding in 1 file (1 checked).\n")


def test_cli_fifo_named_explicitly(tmp_path):
    make_tree(tmp_path, {"a.py": GOOD})
    os.mkfifo(tmp_path / "pipe.py")
    rc, out, err = run_cli(["pipe.py", "a.py"], tmp_path, timeout=30)
    assert out == GOOD_LINE.format("a.py") + "\n"
    assert err == (
        "jaxlint: error: pipe.py: is not a regular file (a named pipe); use '-' to lint standard input\n"
        "Found 1 finding in 1 file (1 checked).\n"
    )
    assert rc == 2


# The real CLI in a child whose os.open and open refuse one path, as the OS does for a file
# without read permission (which cannot be staged when the tests run as root).
REFUSING_CLI = """
import builtins, os, runpy, sys
target = os.path.abspath(sys.argv.pop(1))
real_os_open, real_open = os.open, builtins.open
def refuse(path):
    if isinstance(path, (str, bytes, os.PathLike)) and os.path.abspath(os.fsdecode(path)) == target:
        raise PermissionError(13, "Permission denied", os.fsdecode(path))
def os_open(path, *a, **k):
    refuse(path)
    return real_os_open(path, *a, **k)
def open_(file, *a, **k):
    refuse(file)
    return real_open(file, *a, **k)
os.open, builtins.open = os_open, open_
sys.argv[0] = "jaxlint"
runpy.run_module("jaxlint", run_name="__main__")
"""


@pytest.mark.slow  # starts an interpreter
def test_cli_unreadable_file(tmp_path):
    make_tree(tmp_path, {"a.py": GOOD, "secret.py": GOOD, "z.py": GOOD})
    p = subprocess.run(
        [sys.executable, "-c", REFUSING_CLI, "secret.py", "--no-cache", "--no-color", "--preview", "."],
        cwd=tmp_path,
        capture_output=True,
        env=env(),
        timeout=60,
    )
    assert p.stdout.decode().splitlines() == [
        GOOD_LINE.format("a.py"),
        "secret.py:1:1: JAX001 cannot read file: Permission denied",
        GOOD_LINE.format("z.py"),
    ]
    assert p.stderr.decode() == "Found 3 findings in 3 files (3 checked).\n"
    assert p.returncode == 1


# -- 100,000 lines, in a child process: time and peak memory -----------------------------------


def big_module(n_lines: int) -> str:
    """A jax module of exactly ``n_lines`` lines: plain helpers, a jitted function every 5,000
    helpers, and a jitted function with a traced ``if`` at the very end."""
    out = ["import jax", "import jax.numpy as jnp", ""]
    i = 0
    while len(out) + 4 <= n_lines - 6:
        if i % 5000 == 0:
            out += ["@jax.jit", f"def step_{i}(x):", f"    return jnp.sin(x) * {i}", ""]
        else:
            out += [f"def helper_{i}(a, b={i}):", "    c = a + b", "    return c * 2", ""]
        i += 1
    out += ["@jax.jit", "def last_step(x):", "    if x > 0:", "        return x", "    return -x"]
    out += ["# end"] * (n_lines - len(out))
    return "\n".join(out) + "\n"


BIG_CHILD = """
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from test_robustness_big import big_module
from jaxlint import lint_source
from jaxlint.config import Config
t0 = time.monotonic()
src = big_module(100_000)
t1 = time.monotonic()
findings = lint_source(src, "big.py", Config(preview=True)).findings
t2 = time.monotonic()
print(json.dumps({
    "lines": src.count("\\n"), "bytes": len(src), "generate_s": t1 - t0, "lint_s": t2 - t1,
    "findings": [[f.line, f.column, f.code, f.message] for f in findings],
    "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""

# Peak RSS measured for the 100,000-line module: about 1.0 GB (LibCST trees are large); the
# bound below leaves room without letting a leak or a quadratic copy pass unnoticed.
BIG_RSS_LIMIT_MB = 1600


@pytest.mark.slow
def test_100k_line_module_time_and_memory(tmp_path):
    # The generator is shared with the child through a tiny module (the child must not import
    # the test file, which imports hypothesis and pytest and would inflate the measurement).
    src = __import__("inspect").getsource(big_module)
    (tmp_path / "test_robustness_big.py").write_text(src)
    # The analysis's own time and memory: the memory budget (400 MB of growth) would stop it.
    p = subprocess.run(
        [sys.executable, "-c", BIG_CHILD, str(tmp_path)], capture_output=True, env={**env(), "JAXLINT_FILE_MEMORY_BUDGET": "0"}, timeout=300
    )
    assert p.returncode == 0, p.stderr.decode()
    r = json.loads(p.stdout)
    print(f"100,000-line module: {r}")
    assert r["lines"] == 100_000
    assert r["findings"] == [[99_994, 8, "JAX101", "Python `if` on traced value `x` in jitted last_step()"]]
    assert r["generate_s"] < 2
    assert r["peak_rss_mb"] < BIG_RSS_LIMIT_MB, r


# -- static mode never runs user code ----------------------------------------------------------

HOSTILE = """\
import os
import sys

import jax

with open({marker!r}, "w") as fh:
    fh.write(str(os.getpid()))
if os.fork() == 0:
    with open({marker!r} + ".child", "w") as fh:
        fh.write("child")
    os._exit(0)
sys.exit(7)


@jax.jit
def f(x):
    return float(x)
"""


def test_static_mode_never_executes_user_code(tmp_path):
    marker = str(tmp_path / "marker")
    make_tree(tmp_path, {"hostile.py": HOSTILE.format(marker=marker).encode()})
    expected = "hostile.py:17:12: JAX104 `float()` needs a concrete value but `x` is traced in jitted f()"
    # In this process: a fork or sys.exit here would take the test run down with it.
    findings = read_and_lint(str(tmp_path / "hostile.py"), "hostile.py", rule_config()).findings
    assert [f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}" for f in findings] == [expected]
    # And through the command line, as a user runs it.
    rc, out, err = run_cli(["hostile.py"], tmp_path)
    assert (rc, out, err) == (1, expected + "\n", "Found 1 finding in 1 file (1 checked).\n")
    assert sorted(os.listdir(tmp_path)) == ["hostile.py"]


# -- the same tree gives the same bytes ---------------------------------------------------------


def _determinism_tree(root):
    """Every fixture, odd files, and enough bytes in enough files that --jobs N really uses a
    pool of N workers (the runner lints small runs in-process)."""
    shutil.copytree(os.path.join(ROOT, "fixtures"), os.path.join(root, "fixtures"))
    files = {name: data for name, (data, _) in BAD_FILES.items()}
    padding = '"""' + ("filler text " * 3000) + '"""\n'
    for k in range(12):
        files[f"gen/mod_{k:02d}.py"] = padding.encode() + GOOD + RELU.replace("relu", f"relu_{k}").encode()
    files["empty.py"] = b""
    make_tree(root, files)


@pytest.mark.slow  # starts worker pools, ten runs
def test_output_is_deterministic_across_runs_and_jobs(tmp_path):
    from jaxlint.engine.runner import POOL_MIN_BYTES, POOL_MIN_FILES

    _determinism_tree(tmp_path)
    sizes = [os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(tmp_path) for f in fs]
    assert len(sizes) >= POOL_MIN_FILES and sum(sizes) >= POOL_MIN_BYTES

    help_text = jaxlint(["--help"]).stdout.decode()
    assert "--jobs" in help_text
    outputs = {}
    # Each run is a new interpreter with its own hash seed: the repeated -j 2 run checks that no
    # set's order reaches the output.
    for fmt, runs in (("json", ("1", "2", "3", "2")), ("text", ("1", "2"))):
        for jobs in runs:
            rc, out, err = run_cli(["--format", fmt, "--jobs", jobs, "."], tmp_path, timeout=120)
            assert rc == 1, err
            outputs.setdefault(fmt, set()).add(out)
    for fmt, outs in outputs.items():
        assert len(outs) == 1, f"{fmt} output differs between runs or --jobs values"
    text = outputs["text"].pop()
    assert "JAX002" not in text
    assert GOOD_LINE.format("gen/mod_00.py").replace(":6:", ":7:") in text


@pytest.mark.parametrize(
    "source,line,column",
    [
        ("import jax\ndef f(x) return x\n", 2, 10),
        ("import jax\nx = [1, 2\ny = 3\n", 2, 5),
        ("import jax\nif True:\nprint(jax)\n", 3, 1),
    ],
)
def test_syntax_error_is_reported_where_the_parser_stops(source, line, column):
    (f,) = lint_source(source, "broken.py", rule_config()).findings
    assert (f.code, f.line, f.column) == ("JAX001", line, column)
    with pytest.raises(SyntaxError) as info:
        compile(source, "broken.py", "exec")
    assert (info.value.lineno, info.value.offset) == (line, column)


def test_an_internal_error_in_the_cross_module_phase_is_a_finding_and_the_run_goes_on(tmp_path, monkeypatch):
    """Following a call into another module raises: that module gets one JAX002 and the other
    findings of the run are still reported."""
    from fixture_units import lint_package
    from jaxlint.engine import cross_module

    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "helpers.py").write_text("def scale(x):\n    if x > 0:\n        return x\n    return -x\n")
    (pkg / "train.py").write_text(
        "import jax\n\nfrom .helpers import scale\n\n\n@jax.jit\ndef step(x):\n    print(x)\n    return scale(x)\n"
    )

    def follow(self, *args, **kwargs):
        raise ValueError("boom")

    monkeypatch.setattr(cross_module._Target, "follow", follow)
    found = [(f.path, f.line, f.code, f.message) for f in lint_package(str(pkg))]
    assert found == [
        ("pkg/helpers.py", 1, "JAX002", "internal error while analysing this file: ValueError: boom"),
        ("pkg/train.py", 8, "JAX302", found[1][3]),
    ]
