"""The fix flags of the real command: --fix, --unsafe-fixes, --fix-diff, --show-fixes,
--add-noqa, and --fix with --stdin-filename."""

import ast
import os
import re
import shutil

import pytest

from clirun import ROOT, jaxlint
from jaxlint.findings import Finding
from jaxlint.engine.noqa_comments import add_noqa

SRC = '''import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    print("x", x)  # show it
    return x if x.sum() > 0 else -x
'''

SAFE_FIXED = SRC.replace('print("x", x)', 'jax.debug.print("x {}", x)')
ALL_FIXED = SAFE_FIXED.replace("return x if x.sum() > 0 else -x", "return jnp.where(x.sum() > 0, x, -x)")
LEFT = "m.py:8:17: JAX101 Python `if` on traced value `x` in jitted step()\n".replace("`if`", "`... if ... else ...`")


@pytest.fixture
def proj(tmp_path):
    (tmp_path / "m.py").write_text(SRC)
    return tmp_path


def test_fix_writes_safe_fixes_and_reports_what_is_left(proj):
    p = jaxlint(["--no-cache", "--preview", "--fix", "m.py"], cwd=str(proj))
    assert (proj / "m.py").read_text() == SAFE_FIXED
    assert p.returncode == 1
    assert p.stdout.decode() == LEFT
    assert p.stderr.decode() == "Found 1 finding in 1 file (1 checked).\nFixed 1 finding (1 more fixable with --unsafe-fixes).\n"
    again = jaxlint(["--no-cache", "--preview", "--fix", "m.py"], cwd=str(proj))
    assert (proj / "m.py").read_text() == SAFE_FIXED
    assert again.stderr.decode().endswith("Fixed 0 findings (1 more fixable with --unsafe-fixes).\n")


def test_unsafe_fixes(proj):
    p = jaxlint(["--no-cache", "--preview", "--fix", "--unsafe-fixes", "m.py"], cwd=str(proj))
    assert (proj / "m.py").read_text() == ALL_FIXED
    assert (p.returncode, p.stdout.decode()) == (0, "")
    assert p.stderr.decode() == "All checks passed (1 file checked).\nFixed 2 findings.\n"


def test_text_output_marks_fixable_findings_and_counts_them(proj):
    safe = "m.py:7:5: JAX302 [*] `print()` of traced value `x` in jitted step() runs only while tracing and shows a tracer, not its value\n"
    p = jaxlint(["--no-cache", "--preview", "m.py"], cwd=str(proj))
    assert p.stdout.decode() == safe + LEFT
    assert p.stderr.decode() == (
        "Found 2 findings in 1 file (1 checked).\n"
        "[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).\n"
    )
    # With --unsafe-fixes the unsafe fix is marked and counted too.
    p = jaxlint(["--no-cache", "--preview", "--unsafe-fixes", "m.py"], cwd=str(proj))
    assert p.stdout.decode() == safe + LEFT.replace("JAX101 ", "JAX101 [*] ")
    assert p.stderr.decode() == "Found 2 findings in 1 file (1 checked).\n[*] 2 fixable with the `--fix` option.\n"
    # The full format marks the headline the same way.
    p = jaxlint(["--no-cache", "--preview", "--output-format", "full", "m.py"], cwd=str(proj))
    assert p.stdout.decode().splitlines()[0] == safe.rstrip("\n")
    # Only an unsafe fix left.
    (proj / "m.py").write_text(SAFE_FIXED)
    p = jaxlint(["--no-cache", "--preview", "m.py"], cwd=str(proj))
    assert p.stdout.decode() == LEFT
    assert p.stderr.decode() == (
        "Found 1 finding in 1 file (1 checked).\n"
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).\n"
    )
    # Machine formats are unchanged: no marker, no count.
    p = jaxlint(["--no-cache", "--preview", "--format", "json", "m.py"], cwd=str(proj))
    assert "[*]" not in p.stdout.decode()
    assert p.stderr.decode() == "Found 1 finding in 1 file (1 checked).\n"


def test_exit_non_zero_on_fix(proj):
    # Every finding fixed: exit 0 by default, 1 with --exit-non-zero-on-fix (a fix was applied).
    args = ["--no-cache", "--preview", "--fix", "--unsafe-fixes", "--exit-non-zero-on-fix", "m.py"]
    p = jaxlint(args, cwd=str(proj))
    assert (proj / "m.py").read_text() == ALL_FIXED
    assert (p.returncode, p.stdout.decode()) == (1, "")
    # Nothing left to fix: exit 0 again.
    assert jaxlint(args, cwd=str(proj)).returncode == 0
    # --exit-zero still wins, as in ruff.
    (proj / "m.py").write_text(SRC)
    assert jaxlint([*args, "--exit-zero"], cwd=str(proj)).returncode == 0


def test_exit_non_zero_on_fix_with_stdin(proj):
    args = ["--preview", "--fix", "--unsafe-fixes", "--stdin-filename", "m.py", "-"]
    p = jaxlint(args, cwd=str(proj), stdin=SRC.encode())
    assert (p.returncode, p.stdout.decode()) == (0, ALL_FIXED)
    p = jaxlint([*args, "--exit-non-zero-on-fix"], cwd=str(proj), stdin=SRC.encode())
    assert (p.returncode, p.stdout.decode()) == (1, ALL_FIXED)
    p = jaxlint([*args, "--exit-non-zero-on-fix"], cwd=str(proj), stdin=ALL_FIXED.encode())
    assert (p.returncode, p.stdout.decode()) == (0, ALL_FIXED)


def test_fix_diff_prints_and_writes_nothing(proj):
    p = jaxlint(["--no-cache", "--preview", "--fix-diff", "m.py"], cwd=str(proj))
    assert (proj / "m.py").read_text() == SRC
    assert p.returncode == 1
    assert p.stdout.decode() == (
        "--- a/m.py\n+++ b/m.py\n@@ -4,5 +4,5 @@\n \n @jax.jit\n def step(x):\n"
        '-    print("x", x)  # show it\n+    jax.debug.print("x {}", x)  # show it\n'
        "     return x if x.sum() > 0 else -x\n"
    )
    assert p.stderr.decode() == "Would fix 1 finding (1 more fixable with --unsafe-fixes).\n"
    clean = jaxlint(["--no-cache", "--preview", "--fix-diff", "--select", "JAX3", "m.py"], cwd=str(proj))
    assert clean.returncode == 1
    (proj / "m.py").write_text(SAFE_FIXED)
    nothing = jaxlint(["--no-cache", "--preview", "--fix-diff", "m.py"], cwd=str(proj))
    assert (nothing.returncode, nothing.stdout) == (0, b"")


def test_show_fixes_lists_available_and_applied(proj):
    p = jaxlint(["--no-cache", "--preview", "--show-fixes", "m.py"], cwd=str(proj))
    out = p.stdout.decode()
    assert out.endswith(
        "Fixable with --fix:\n  m.py:7:5: JAX302 Replace with `jax.debug.print`\n"
        "Fixable with --fix --unsafe-fixes:\n  m.py:8:17: JAX101 Replace with `jnp.where`\n"
    )
    p = jaxlint(["--no-cache", "--preview", "--fix", "--show-fixes", "m.py"], cwd=str(proj))
    assert p.stdout.decode() == LEFT + (
        "Fixed 1 finding:\n  m.py:7:5: JAX302 Replace with `jax.debug.print`\n"
        "Fixable with --fix --unsafe-fixes:\n  m.py:8:17: JAX101 Replace with `jnp.where`\n"
    )


HELPER = """import jax.numpy as jnp


def helper(x):
    print(x)
    return x + 1
"""
CALLER = """import jax

from pkg.a import helper


@jax.jit
def f(x):
    return helper(x)
"""


@pytest.fixture
def package(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text(HELPER)
    (tmp_path / "pkg" / "b.py").write_text(CALLER)
    return tmp_path


def test_fix_applies_the_fix_of_a_finding_the_cross_module_phase_made(package):
    """The finding in pkg/a.py exists only because pkg/b.py jits its caller: the report marks
    it fixable, so --fix fixes it in pkg/a.py and counts it."""
    finding = (
        "pkg/a.py:5:5: JAX302 [*] `print()` of traced value `x` in helper(), called with traced values from jitted f() "
        "in pkg/b.py runs only while tracing and shows a tracer, not its value\n"
    )
    p = jaxlint(["--no-cache", "pkg"], cwd=str(package))
    assert p.stdout.decode() == finding
    assert p.stderr.decode() == "Found 1 finding in 1 file (3 checked).\n[*] 1 fixable with the `--fix` option.\n"
    p = jaxlint(["--no-cache", "--fix-diff", "pkg"], cwd=str(package))
    assert p.stdout.decode() == (
        "--- a/pkg/a.py\n+++ b/pkg/a.py\n@@ -1,6 +1,7 @@\n import jax.numpy as jnp\n+import jax\n \n \n def helper(x):\n"
        '-    print(x)\n+    jax.debug.print("{}", x)\n     return x + 1\n'
    )
    assert p.stderr.decode() == "Would fix 1 finding.\n"
    assert (package / "pkg" / "a.py").read_text() == HELPER
    p = jaxlint(["--no-cache", "--fix", "pkg"], cwd=str(package))
    assert (p.returncode, p.stdout.decode()) == (0, "")
    assert p.stderr.decode() == "All checks passed (3 files checked).\nFixed 1 finding.\n"
    assert (package / "pkg" / "a.py").read_text() == HELPER.replace("    print(x)", '    jax.debug.print("{}", x)').replace(
        "import jax.numpy as jnp\n", "import jax.numpy as jnp\nimport jax\n"
    )
    assert (package / "pkg" / "b.py").read_text() == CALLER


NOQA = """import jax


@jax.jit
def scale(x):
    y = x * 2  # noqa: JAX102
    z = x + 1  # noqa: JAX102, E501
    w = x - 1  # noqa: JAX102  # why
    v = x / 2  # noqa: JAX102 because
    u = x  # noqa
    t = x  # noqa: JAX102, JAX302, E501
    if x > 0:  # noqa
        return y + z + w + v + u + t
    return x  # NOQA:JAX102
"""


def test_fix_removes_unused_noqa_codes_and_comments(tmp_path):
    """JAX004's fix takes the unused jaxlint codes out of the list, or the whole directive
    when none is left (a comment after it stays); with text after the codes there is no fix.
    A bare ``# noqa`` is judged only when every rule ran (a rule that did not run may be what
    it is for), and removing it is unsafe (another tool may need it); the one on the ``if``
    silences the JAX101 there."""
    (tmp_path / "n.py").write_text(NOQA)
    p = jaxlint(["--no-cache", "--isolated", "--extend-select", "JAX004", "n.py"], cwd=str(tmp_path))
    assert p.stdout.decode() == (
        "n.py:6:24: JAX004 [*] unused `noqa` code: JAX102\n"
        "n.py:7:24: JAX004 [*] unused `noqa` code: JAX102\n"
        "n.py:8:24: JAX004 [*] unused `noqa` code: JAX102\n"
        "n.py:9:24: JAX004 unused `noqa` code: JAX102\n"
        "n.py:11:20: JAX004 [*] unused `noqa` code: JAX102, JAX302\n"
        "n.py:14:22: JAX004 [*] unused `noqa` code: JAX102\n"
    )
    everything = ["--no-cache", "--isolated", "--select", "ALL", "--preview"]
    p = jaxlint([*everything, "n.py"], cwd=str(tmp_path))
    assert "n.py:10:12: JAX004 unused blanket `noqa`: no finding on its line\n" in p.stdout.decode()
    p = jaxlint([*everything, "--fix", "n.py"], cwd=str(tmp_path))
    assert p.stderr.decode() == "Found 2 findings in 1 file (1 checked).\nFixed 5 findings (1 more fixable with --unsafe-fixes).\n"
    safe = (
        NOQA.replace("x * 2  # noqa: JAX102\n", "x * 2\n")
        .replace("# noqa: JAX102, E501", "# noqa: E501")
        .replace("# noqa: JAX102  # why", "# why")
        .replace("# noqa: JAX102, JAX302, E501", "# noqa: E501")
        .replace("return x  # NOQA:JAX102\n", "return x\n")
    )
    assert (tmp_path / "n.py").read_text() == safe
    p = jaxlint([*everything, "--fix", "--unsafe-fixes", "n.py"], cwd=str(tmp_path))
    assert p.stderr.decode() == "Found 1 finding in 1 file (1 checked).\nFixed 1 finding.\n"
    assert (tmp_path / "n.py").read_text() == safe.replace("u = x  # noqa\n", "u = x\n")


def test_unused_noqa_edits():
    from fixture_units import rule_config
    from jaxlint.engine import lint_source

    findings = lint_source(NOQA, "n.py", rule_config(select=("ALL",))).findings
    got = {f.line: (f.autofix["safety"], f.autofix["edits"]) if f.autofix else None for f in findings if f.code == "JAX004"}
    edit = lambda line, a, b, text="": [{"text": text, "line": line, "column": a, "end_line": line, "end_column": b}]  # noqa: E731
    assert got == {
        6: ("safe", edit(6, 14, 30)),  # "  # noqa: JAX102" after "y = x * 2"
        7: ("safe", edit(7, 24, 36, "E501")),
        8: ("safe", edit(8, 16, 32)),  # "# noqa: JAX102  ": "# why" stays
        9: None,  # "because" follows the codes
        10: ("unsafe", edit(10, 10, 18)),
        11: ("safe", edit(11, 20, 40, "E501")),
        14: ("safe", edit(14, 13, 28)),
    }


def test_a_noqa_that_only_a_cross_module_finding_uses_is_kept(package):
    """Linted alone, pkg/a.py's ``# noqa: JAX302`` silences nothing; in the run it silences
    the finding the cross-module phase makes there: --fix leaves it."""
    helper = HELPER.replace("    print(x)\n", "    print(x)  # noqa: JAX302\n")
    (package / "pkg" / "a.py").write_text(helper)
    p = jaxlint(["--no-cache", "--extend-select", "JAX004", "--fix", "pkg"], cwd=str(package))
    assert (p.returncode, p.stdout.decode()) == (0, "")
    assert p.stderr.decode() == "All checks passed (3 files checked).\nFixed 0 findings.\n"
    assert (package / "pkg" / "a.py").read_text() == helper


def test_show_advice_prints_help_lines(proj):
    p = jaxlint(["--no-cache", "--preview", "--show-advice", "--select", "JAX302", "m.py"], cwd=str(proj))
    assert p.stdout.decode().splitlines()[1] == '    help: use jax.debug.print("... {}", x) to print the runtime value on every call'


def test_stdin_fix_writes_the_fixed_source_to_stdout(proj):
    p = jaxlint(["--preview", "--fix", "--stdin-filename", "pkg/m.py"], cwd=str(proj), stdin=SRC.encode())
    assert p.stdout.decode() == SAFE_FIXED
    assert p.returncode == 1
    assert p.stderr.decode() == LEFT.replace("m.py", "pkg/m.py") + "Fixed 1 finding (1 more fixable with --unsafe-fixes).\n"
    assert (proj / "m.py").read_text() == SRC


def test_add_noqa_silences_every_remaining_finding(proj):
    (proj / "m.py").write_text(SRC + "\n\n@jax.jit\ndef g(x):\n    return x and 1  # noqa: JAX302\n")
    p = jaxlint(["--no-cache", "--preview", "--add-noqa", "m.py"], cwd=str(proj))
    assert p.returncode == 0
    assert p.stderr.decode() == "Added 3 noqa comments to 1 file.\n"
    text = (proj / "m.py").read_text()
    assert '    print("x", x)  # show it  # noqa: JAX302\n' in text
    assert "    return x if x.sum() > 0 else -x  # noqa: JAX101\n" in text
    assert "    return x and 1  # noqa: JAX302, JAX106\n" in text
    after = jaxlint(["--no-cache", "--preview", "m.py"], cwd=str(proj))
    assert after.returncode == 0


def test_add_noqa_comments_no_finding_about_the_whole_file():
    """JAX002 (the analysis failed on the file) is reported on line 1, which no comment there answers."""
    text = "import jax\nx = 1\n"
    internal = Finding("m.py", 1, 1, 1, 2, "JAX002", "internal-error", "internal error", "")
    traced = Finding("m.py", 2, 1, 2, 2, "JAX101", "traced-if", "m", "")
    assert add_noqa(text, [internal]) == (text, 0)
    assert add_noqa(text, [internal, traced]) == ("import jax\nx = 1  # noqa: JAX101\n", 1)


@pytest.mark.slow  # fixes every fixture twice
def test_fix_on_every_fixture_parses_and_is_stable(tmp_path):
    tree = tmp_path / "fixtures"
    shutil.copytree(os.path.join(ROOT, "fixtures"), tree)
    first = jaxlint(["--no-cache", "--preview", "--fix", "--unsafe-fixes", "--exit-zero", "fixtures"], cwd=str(tmp_path))
    assert first.returncode == 0, first.stderr.decode()
    assert "fixes not applied" not in first.stderr.decode()
    fixed = int(first.stderr.decode().splitlines()[-1].split()[1])
    assert fixed >= 30
    snapshot = {}
    for dirpath, _, names in os.walk(tree):
        for n in names:
            if n.endswith(".py"):
                path = os.path.join(dirpath, n)
                with open(path, encoding="utf-8") as fh:
                    snapshot[path] = fh.read()
                ast.parse(snapshot[path], path)
    second = jaxlint(["--no-cache", "--preview", "--fix", "--unsafe-fixes", "--exit-zero", "fixtures"], cwd=str(tmp_path))
    assert second.stderr.decode().splitlines()[-1] == "Fixed 0 findings."
    for path, text in snapshot.items():
        with open(path, encoding="utf-8") as fh:
            assert fh.read() == text, path


@pytest.mark.slow  # fixes every fixture, and lints them all before and after
@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
def test_fixed_count_on_the_fixtures_is_the_fixes_written(tmp_path, monkeypatch, unsafe):
    """"Fixed N" counts the fixes written: the fixes recorded, replayed round by round on the
    original files, give exactly the files --fix wrote, each one changes its round's text, and
    there are N of them.  Every finding the report marked fixable is among them (the
    cross-module phase's included), none is left fixable, and the findings that disappeared
    are the ones marked; the others are findings an earlier fix revealed and a later round
    fixed (``np.log1p(np.exp(x))``: ``np.log1p`` is flagged once ``np.exp`` is ``jnp.exp``)."""
    from collections import Counter

    from fixture_units import rule_config
    from jaxlint.engine.run import lint_files
    from jaxlint.engine import edits
    from jaxlint.engine.fixing import fix_files
    from jaxlint.paths import relpath

    shutil.copytree(os.path.join(ROOT, "fixtures"), tmp_path / "fixtures")
    monkeypatch.chdir(tmp_path)
    config = rule_config()
    files = lint_files(["fixtures"], config, jobs=1).files
    original = {}
    for path in files:
        with open(path, encoding="utf-8", newline="") as fh:
            original[path] = fh.read()
    before = lint_files((), config, files=files).findings
    marked = [f for f in before if f.fixable(unsafe)]
    record = fix_files(files, relpath, lambda _p: config, write=False, unsafe=unsafe).applied

    p = jaxlint(["--no-cache", "--isolated", "--preview", "--fix", "--exit-zero", *(["--unsafe-fixes"] if unsafe else []), "fixtures"], cwd=str(tmp_path))
    last = p.stderr.decode().splitlines()[-1]
    assert re.fullmatch(r"Fixed \d+ findings( \(\d+ more fixable with --unsafe-fixes\))?\.", last), last
    fixed = int(last.split()[1])

    written = 0
    for path in files:
        with open(path, encoding="utf-8", newline="") as fh:
            now = fh.read()
        text = original[path]
        for round_ in record.get(relpath(path), []):
            for f in round_:
                assert edits.apply([f.autofix], text) != text, (path, f.line, f.code)
            text = edits.apply([f.autofix for f in round_], text)
            written += len(round_)
        assert now == text, path
        assert (now != original[path]) == (relpath(path) in record), path
    assert fixed == written
    assert len(marked) >= 30

    after = lint_files((), config, files=files).findings
    assert [f for f in after if f.fixable(unsafe)] == []
    ident = Counter((f.path, f.code, f.message) for f in marked)
    done = Counter((f.path, f.code, f.message) for r in record.values() for round_ in r for f in round_)
    assert ident - done == Counter()  # every marked finding was fixed
    gone = Counter((f.path, f.code) for f in before) - Counter((f.path, f.code) for f in after)
    assert sum(gone.values()) == len(marked)
    assert fixed == len(marked) + sum((done - ident).values())


def test_rdjson_offers_single_edit_safe_fixes_as_suggestions(tmp_path):
    import json

    (tmp_path / "u.py").write_text("import jax.numpy as jnp\n\nbuf = jnp.zeros(3)\nbuf[0] += 1.0\n")
    p = jaxlint(["--no-cache", "--preview", "--format", "rdjson", "u.py"], cwd=str(tmp_path))
    (d,) = json.loads(p.stdout)["diagnostics"]
    assert d["code"]["value"] == "JAX304"
    assert d["suggestions"] == [
        {"range": {"start": {"line": 4, "column": 1}, "end": {"line": 4, "column": 14}}, "text": "buf = buf.at[0].add(1.0)"}
    ]
