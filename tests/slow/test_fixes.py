"""Fixes: each ``fixtures/fixes/<name>.in.py`` fixed gives exactly ``<name>.out.py``, and fixing
that again changes nothing.  ``<name>.unsafe.in.py`` pairs are fixed with the unsafe tier;
``<name>.nofix.in.py`` pairs are shapes that ``--fix`` must leave as they are (their ``.out.py``
is the same text), with every marked finding still there.

Under real JAX, each ``.out.py`` runs its ``CASES`` without error and every ``CHECKS`` function
(the results the code meant) returns True, while in the ``.in.py`` every check fails (raises or
returns something else): the fix is what makes the code work.

Safety is proven by running: every fixture applies its safe fixes, and the fixed program runs
its traced path (``CASES``: the functions as jitted) and its host path (``HOST_CASES``: the
calls the program makes outside any transform).  Wherever the original ran, the fixed program
gives the same result (type, dtype, shape, values), and on the host path prints the same text."""

import contextlib
import glob
import io
import os

import pytest

from fixture_units import FIXTURES_DIR, ROOT, rule_config
from jaxlint.engine import lint_source
from jaxlint.engine.fixing import fix_source, unsafe_fixable
from markers import expected_markers

PAIRS = sorted(glob.glob(os.path.join(FIXTURES_DIR, "fixes", "*.in.py")))


def _read(path):
    with open(path, encoding="utf-8", newline="") as fh:
        return fh.read()


def _out(path):
    return path[: -len(".in.py")] + ".out.py"


def _fix(text, path, unsafe):
    rel = os.path.relpath(path, ROOT)
    return fix_source(text, lambda t: lint_source(t, rel, rule_config()).findings, unsafe=unsafe)


def _unsafe(path):
    return path.endswith(".unsafe.in.py")


def _nofix(path):
    return path.endswith(".nofix.in.py")


def _id(path):
    return os.path.basename(path)[: -len(".in.py")]


def test_there_are_fix_fixtures():
    assert len(PAIRS) >= 4
    for p in PAIRS:
        assert os.path.isfile(_out(p)), f"{_out(p)} is missing"


@pytest.mark.parametrize("path", PAIRS, ids=[_id(p) for p in PAIRS])
def test_fix(path):
    source = _read(path)
    want, _ = expected_markers(source)
    result = _fix(source, path, _unsafe(path))
    if _nofix(path):
        # Unchanged by --fix, and the findings stay: none of them has a safe fix.
        assert _read(_out(path)) == source
        assert result.source == source and result.fixed == [] and result.refused is None
        assert {(f.line, f.code) for f in result.remaining} == want
        assert not [f for f in result.remaining if f.fixable(False)]
        return
    assert result.refused is None
    assert result.source == _read(_out(path))
    # Every marked finding has a fix of the tier, all were applied, and nothing is left.
    first = lint_source(source, os.path.relpath(path, ROOT), rule_config()).findings
    assert {(f.line, f.code) for f in first if f.fixable(_unsafe(path))} == want
    assert len(result.fixed) >= len(want)
    assert result.remaining == []
    again = _fix(result.source, path, _unsafe(path))
    assert again.source == result.source and again.fixed == []



def _load(path):
    import importlib.util
    import sys

    name = "fixed_" + os.path.basename(path).replace(".", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(path))
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(os.path.dirname(path))
    return mod


def _check_passes(check):
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            return check() is True
    except Exception:  # noqa: BLE001 - a check that raises has failed
        return False


@pytest.mark.slow  # runs JAX
@pytest.mark.parametrize("path", PAIRS, ids=[_id(p) for p in PAIRS])
def test_fixed_code_runs_under_jax(path):
    pytest.importorskip("jax")
    if _nofix(path):
        return  # nothing is fixed: test_safe_fixes_keep_behaviour_on_both_paths runs it
    fixed = _load(_out(path))
    assert fixed.CHECKS, "a fix fixture says what the code meant"
    for case in fixed.CASES:
        with contextlib.redirect_stdout(io.StringIO()):
            case()
    failed = [c.__name__ for c in fixed.CHECKS if not _check_passes(c)]
    assert not failed, f"{_id(path)}: fixed code does not do what it meant: {failed}"
    original = _load(path)
    passing = [c.__name__ for c in original.CHECKS if _check_passes(c)]
    assert not passing, f"{_id(path)}: checks pass before the fix, so they test nothing: {passing}"


# --- safe fixes keep behaviour, on the traced and the host path ---------------------------------

SAFE_PAIRS = [p for p in PAIRS if not _unsafe(p)]


def _canonical(value):
    """What a caller can observe of a result: its structure and, per leaf, the kind of object,
    dtype, shape and values (a NumPy float64 array and a JAX float32 one differ)."""
    import jax
    import numpy as np

    leaves, treedef = jax.tree.flatten(value)
    out = []
    for leaf in leaves:
        kind = type(leaf).__module__.split(".")[0]
        dtype = str(leaf.dtype) if hasattr(leaf, "dtype") else None
        try:
            values = np.asarray(leaf).tolist()
        except Exception:  # noqa: BLE001 - an object that is not an array: compare its repr
            values = repr(leaf)
        out.append((kind, dtype, np.shape(leaf) if dtype else None, values))
    return str(treedef), out


def _outcome(case):
    """("ok", result, printed) or ("raised", exception type, printed)."""
    import jax

    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            value = case()
            jax.effects_barrier()
        return "ok", _canonical(value), printed.getvalue()
    except Exception as e:  # noqa: BLE001 - the outcome is compared, not raised
        return "raised", type(e).__name__, printed.getvalue()


def _differences(original, fixed, path_name):
    """Where the fixed program behaves differently from the original on ``path_name``
    (CASES or HOST_CASES), on the calls the original ran."""
    cases_before = getattr(original, path_name)
    cases_after = getattr(fixed, path_name)
    assert len(cases_before) == len(cases_after)
    found = []
    for i, (before, after) in enumerate(zip(cases_before, cases_after)):
        b, a = _outcome(before), _outcome(after)
        if b[0] != "ok":
            continue  # the original failed here: the fix may (should) change that
        if a[0] != "ok" or a[1] != b[1]:
            found.append(f"{path_name}[{i}]: {b[:2]} became {a[:2]}")
        elif path_name == "HOST_CASES" and a[2] != b[2]:
            # On the host the original's prints showed values: the fixed code prints the same.
            found.append(f"{path_name}[{i}]: printed {b[2]!r}, now {a[2]!r}")
    return found


def _fixed_module(path, tmp_path, unsafe=False):
    source = _read(path)
    result = _fix(source, path, unsafe)
    target = tmp_path / os.path.basename(path).replace(".in.py", ".fixed.py")
    target.write_text(result.source, encoding="utf-8")
    return result, _load(str(target))


@pytest.mark.parametrize("path", SAFE_PAIRS, ids=[_id(p) for p in SAFE_PAIRS])
def test_safe_fixes_keep_behaviour_on_both_paths(path, tmp_path):
    pytest.importorskip("jax")
    original = _load(path)
    assert hasattr(original, "CASES") and hasattr(original, "HOST_CASES"), "a fix fixture runs its traced and host paths"
    _, fixed = _fixed_module(path, tmp_path)
    assert _differences(original, fixed, "CASES") == []
    assert _differences(original, fixed, "HOST_CASES") == []


def test_the_comparison_sees_what_an_unsafe_fix_changes(tmp_path):
    """The np -> jnp rewrite in a helper that host code calls, applied anyway (--unsafe-fixes):
    the host path now gets an immutable JAX float32 array.  The comparison must see it, or the
    test above could not fail.  The rewrite makes the host path's store into that array an
    in-place update of a JAX array, which the next round rewrites too (``y.at[0].set``): both
    host cases then run, on JAX float32 arrays where they had NumPy float64 ones."""
    pytest.importorskip("jax")
    path = os.path.join(FIXTURES_DIR, "fixes", "jnp_host_helper.nofix.in.py")
    result, fixed = _fixed_module(path, tmp_path, unsafe=True)
    assert "jnp.exp" in result.source
    assert "y = y.at[0].set(5.0)" in result.source
    found = _differences(_load(path), fixed, "HOST_CASES")
    assert len(found) == 2
    for case in found:
        assert "'numpy', 'float64'" in case and "'jaxlib', 'float32'" in case


# --- the applier ----------------------------------------------------------------------------------


def _finding(line, col, end_col, text, safety="safe", code="JAX999"):
    from jaxlint.findings import Finding

    edit = {"text": text, "line": line, "column": col, "end_line": line, "end_column": end_col}
    return Finding("m.py", line, col, line, end_col, code, "n", "m", autofix={"title": "t", "safety": safety, "edits": [edit]})


def test_a_fix_whose_result_does_not_parse_is_refused():
    source = "x = 1\ny = 2\n"
    result = fix_source(source, lambda t: [_finding(1, 5, 6, "(")] if t == source else [])
    assert result.source == source
    assert result.fixed == []
    assert result.refused.startswith("syntax error")


def test_overlapping_fixes_take_one_per_round_until_nothing_changes():
    rounds = []

    def lint(text):
        rounds.append(text)
        if text == "a = b + c\n":
            # Two fixes of the same span: one is applied, the other is seen again next round.
            return [_finding(1, 5, 10, "d"), _finding(1, 5, 6, "e")]
        return []

    result = fix_source("a = b + c\n", lint)
    assert result.source == "a = d\n"
    assert len(result.fixed) == 1 and rounds == ["a = b + c\n", "a = d\n"]


def test_unsafe_fixes_only_when_asked():
    source = "a = b\n"
    lint = lambda t: [_finding(1, 5, 6, "c", safety="unsafe")] if t == source else []  # noqa: E731
    safe_only = fix_source(source, lint)
    assert safe_only.source == source and unsafe_fixable(safe_only.remaining) == 1
    assert fix_source(source, lint, unsafe=True).source == "a = c\n"


def test_rounds_are_bounded():
    from jaxlint.engine.fixing import MAX_ROUNDS

    calls = []

    def lint(text):
        calls.append(text)
        return [_finding(1, 5, 6, "b" if text.endswith("a\n") else "a")]

    fix_source("x = a\n", lint)
    assert len(calls) == MAX_ROUNDS + 1


def test_fixes_keep_comments_and_blank_lines_crlf():
    source = "import jax\r\n\r\n# about f\r\n@jax.jit\r\ndef f(x):\r\n    print('x', x)  # debug\r\n\r\n    return x\r\n"
    result = fix_source(source, lambda t: lint_source(t, "m.py", rule_config()).findings)
    assert result.source == source.replace("print('x', x)", 'jax.debug.print("x {}", x)')


def test_a_jit_made_per_element_of_a_comprehension_is_not_hoisted_out_of_an_outer_loop():
    # the comprehension is the loop that repeats the jit: there is no statement to hoist it
    # out of, and the ``for`` around the comprehension is not the loop that repeats it
    source = (
        "import jax\n\n\n"
        "def run(x, epochs):\n"
        "    for _ in range(epochs):\n"
        "        ys = [jax.jit(lambda v: v * 2.0)(x) for _ in range(3)]\n"
        "    return ys\n"
    )
    findings = [f for f in lint_source(source, "m.py", rule_config()).findings if f.code == "JAX401"]
    assert [(f.line, f.autofix) for f in findings] == [(6, None)]
    assert fix_source(source, lambda t: lint_source(t, "m.py", rule_config()).findings, unsafe=True).source == source


def test_a_rule_with_a_suggestion_and_a_fix_safety_has_a_fix():
    """How API-migration rules plug in: an exact ``suggestion=`` plus ``fix_safety``."""
    import libcst as cst

    from jaxlint.rules.base import Rule

    class TreeMapMigration(Rule):
        code = "JAX699"
        name = "example-migration"
        message = "`jax.tree_map` is removed"
        fix = "use jax.tree.map"
        fix_safety = "safe"

        def check_module(self, m):
            for call, _scope, _order in m.index.calls:
                if isinstance(call.func, cst.Attribute) and call.func.attr.value == "tree_map":
                    m.report(self, call.func, suggestion="jax.tree.map")

    source = "import jax\n\ny = jax.tree_map(abs, [1, -2])  # migrate\n"
    lint = lambda t: lint_source(t, "m.py", rule_config(), rules=[TreeMapMigration]).findings  # noqa: E731
    (finding,) = lint(source)
    assert finding.autofix == {
        "title": "Replace with `jax.tree.map`",
        "safety": "safe",
        "edits": [{"text": "jax.tree.map", "line": 3, "column": 5, "end_line": 3, "end_column": 17}],
    }
    # the suggestion carries the tier the rule declares, as the fix does
    assert finding.suggestion == {"text": "jax.tree.map", "line": 3, "column": 5, "end_line": 3, "end_column": 17, "safety": "safe"}
    assert fix_source(source, lint).source == "import jax\n\ny = jax.tree.map(abs, [1, -2])  # migrate\n"


def test_a_chain_of_ternaries_is_fixed_from_the_inside_out():
    source = (
        "import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef clip(x):\n"
        "    return -1.0 if x < -1.0 else 1.0 if x > 1.0 else x\n"
    )
    lint = lambda t: lint_source(t, "m.py", rule_config()).findings  # noqa: E731
    # only the inner ternary offers a fix at first: the outer one's would overlap it
    assert [(f.line, f.column, f.code, f.autofix is not None) for f in lint(source)] == [(7, 20, "JAX101", False), (7, 41, "JAX101", True)]
    result = fix_source(source, lint, unsafe=True)
    assert result.source.splitlines()[-1] == "    return jnp.where(x < -1.0, -1.0, jnp.where(x > 1.0, 1.0, x))"
    assert len(result.fixed) == 2


WHERE_SHAPES = """import jax
import jax.numpy as jnp
from typing import NamedTuple


class Carry(NamedTuple):
    value: jax.Array
    count: jax.Array


@jax.jit
def step(carry: Carry):
    if carry.count > 2:
        return carry
    return Carry(carry.value + 1, carry.count + 1)


@jax.jit
def swap(pair, x):
    return pair if x.sum() > 0 else (pair[1], pair[0])


@jax.jit
def head_or_all(x, n: int = 2):
    if x.mean() > 0:
        return x[:n]
    return x


@jax.jit
def pick(grads, loss):
    if loss.sum() > 0:
        return grads
    return grads


@jax.jit
def flip(x):
    if not x.any():
        return x
    return -x


@jax.jit
def scaled(x, factor):
    if factor > 1:
        return x * factor
    return x


@jax.jit
def guarded(x):
    if x is not None and x.sum() > 0:
        return x
    return -x


@jax.jit
def shaped(x):
    return jnp.zeros(x.shape) if x.sum() > 0 else x
"""


def test_jnp_where_only_for_arrays_whose_shapes_broadcast():
    """A pytree branch (a NamedTuple, a tuple, a parameter nothing shows to be an array) or
    two arrays of unrelated shapes (``x[:n]`` and ``x``) would make ``jnp.where`` raise: no
    fix.  ``not``/``and`` in the condition become ``jnp.logical_not``/``logical_and`` (a
    tracer has no truth value in ``jnp.where`` either); a guard stays a Python operator."""
    findings = lint_source(WHERE_SHAPES, "m.py", rule_config(select=("JAX101",))).findings
    got = [(f.line, f.column, f.autofix["edits"][0]["text"] if f.autofix else None) for f in findings]
    assert got == [
        (13, 8, None),
        (20, 20, None),
        (25, 8, None),
        (32, 8, None),
        (39, 8, "return jnp.where(jnp.logical_not(x.any()), x, -x)"),
        (46, 8, "return jnp.where(factor > 1, x * factor, x)"),
        (53, 8, "return jnp.where(x is not None and x.sum() > 0, x, -x)"),
        (60, 34, "jnp.where(x.sum() > 0, jnp.zeros(x.shape), x)"),
    ]


# --- unsafe fixes under JAX: what the fix makes run, and what it must not break ----------------


@pytest.mark.slow  # fixes every fixture, then runs the cases of the fixed ones under JAX, twice
def test_traced_if_fixes_make_the_failing_cases_run_and_break_none(tmp_path):
    """Every JAX101 fix (``jnp.where``, or a parameter made static), applied with
    ``--unsafe-fixes`` to a copy of the fixtures: each case that failed at a line the fix
    rewrote now runs, and no case that ran before now raises.  ``jnp.where`` given a pytree
    branch raises TypeError, and given arrays whose shapes do not broadcast a ValueError: those
    branches get no such fix."""
    import json
    import shutil
    import subprocess
    import sys

    from clirun import env
    from fixture_units import oracle_units
    from jaxlint.engine.run import lint_files
    from jaxlint.engine.fixing import fix_files

    pytest.importorskip("jax")
    original, fixed = tmp_path / "original", tmp_path / "fixed"
    shutil.copytree(FIXTURES_DIR, original)
    shutil.copytree(FIXTURES_DIR, fixed)
    config = rule_config(select=("JAX101",))
    files = lint_files([str(fixed)], config, jobs=1).files
    shown = lambda p: os.path.relpath(p, fixed)  # noqa: E731
    record = fix_files(files, shown, lambda _p: config, write=True, unsafe=True).applied
    # (file, line) of the original where a fix was written (the first round's spans are lines
    # of the original; the links of a ternary chain fixed later are on the same line)
    rewritten = {(f.path, f.line) for rounds in record.values() for f in rounds[0]}
    modules = [
        os.path.relpath(path, FIXTURES_DIR)
        for _, path, unit in oracle_units()
        if any(os.path.relpath(f, FIXTURES_DIR) in record for f in unit)
    ]
    assert len(modules) >= 20

    def run(tree):
        p = subprocess.run(
            [sys.executable, os.path.join(ROOT, "tests", "case_outcomes.py"), str(tree), *modules],
            capture_output=True, text=True, env=env(), timeout=900,
        )
        assert p.returncode == 0, p.stderr[-3000:]
        return json.loads(p.stdout)

    before, after = run(original), run(fixed)
    assert before.keys() == after.keys()
    broken = {k: after[k] for k, b in before.items() if b == ["ok"] and after[k] != ["ok"]}
    assert broken == {}
    meant = [k for k, b in before.items() if b[0] == "raised" and b[2] is not None and tuple(b[2]) in rewritten]
    assert len(meant) >= 40
    assert {k: after[k] for k in meant if after[k] != ["ok"]} == {}
