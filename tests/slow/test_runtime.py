"""Findings observed while the user's code runs: ``jaxlint run`` and ``pytest --jaxlint``
(jaxlint/runtime).  Every expectation here is what real JAX does when the code runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("jax")

from jaxlint.runtime import sites  # noqa: E402
from jaxlint.runtime.observer import parse_miss, recompile_rule  # noqa: E402
from clirun import ROOT  # noqa: E402

pytestmark = pytest.mark.slow

SCRIPT = '''\
import functools
import jax
import jax.numpy as jnp


@jax.jit
def clip_negative(x):
    if x.sum() < 0:
        return jnp.zeros_like(x)
    return x


@functools.partial(jax.jit, static_argnums=1)
def scale(x, n):
    return x * n


@functools.partial(jax.jit, static_argnums=1)
def head(x, n):
    return x[:n]


@jax.jit
def bump(x):
    return x + jnp.float32(1)


def train():
    for step in range(3):
        scale(jnp.ones(2), step)
    for n in range(1, 4):
        head(jnp.arange(n), 1)
    try:
        clip_negative(jnp.ones(3))
    except jax.errors.TracerBoolConversionError:
        pass
    for i in range(3):
        jax.jit(lambda x: x + 1)(1.0)
    x = 0.0
    for i in range(3):
        x = bump(x)


train()
scale(jnp.ones(2), [1, 2])
'''


def run_script(tmp_path, text, *extra):
    path = tmp_path / "train.py"
    path.write_text(text)
    out = tmp_path / "out.json"
    p = subprocess.run(
        [sys.executable, "-m", "jaxlint", "run", "--format", "json", "-o", str(out), *extra, "train.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    return p, json.loads(out.read_text())


def test_run_reports_what_jax_did(tmp_path):
    p, found = run_script(tmp_path, SCRIPT)
    assert p.returncode == 1, p.stderr
    assert "ValueError: Non-hashable static arguments" in p.stderr  # the script's own error, as Python shows it
    got = [(f["code"], f["line"], f["column"], f["observed"]["count"]) for f in found]
    assert got == [
        ("JAX101", 8, 8, 1),  # caught by the script, still a bug
        ("JAX204", 30, 28, 2),  # a static loop counter: 3 traces, 2 of them again
        ("JAX205", 32, 14, 2),  # a shape that grows with the loop
        ("JAX401", 38, 9, 2),  # jax.jit of a fresh lambda
        ("JAX402", 41, 18, 1),  # 0.0 is weakly typed, bump's result is not (the static finding marks the argument)
        ("JAX202", 45, 20, 1),  # the error that ended the script
    ]
    # The static analysis found the same bugs: its messages, which name the variables, are used.
    by_code = {f["code"]: f for f in found}
    assert "`step`" in by_code["JAX204"]["message"]
    assert by_code["JAX204"]["observed"] == {"count": 2, "test": "train.py", "tests": 1}


def test_run_without_static_uses_jax_words(tmp_path):
    _, found = run_script(tmp_path, SCRIPT, "--no-static")
    by_code = {f["code"]: f for f in found}
    assert by_code["JAX204"]["message"] == "`scale` was traced 3 times at this call: a static value changed (at input path [0][1]: now 2, before 0)"
    assert by_code["JAX101"]["message"].startswith("JAX raised TracerBoolConversionError here")
    assert by_code["JAX101"]["fix"]  # the rule's own fix advice


def test_errors_a_library_catches_itself_are_not_reported(tmp_path):
    # x[:n] with a traced n: JAX tries __index__, catches its TracerIntegerConversionError, and
    # raises IndexError instead.  Only the IndexError reached the user: it is reported (through
    # JAX's API boundary, also when the script catches it), the error JAX caught is not.
    text = textwrap.dedent(
        """\
        import jax
        import jax.numpy as jnp

        @jax.jit
        def head(x, n):
            return x[:n]

        try:
            head(jnp.arange(4), 2)
        except IndexError:
            pass
        """
    )
    p, found = run_script(tmp_path, text, "--no-static")
    assert p.returncode == 1, p.stderr
    assert [(f["code"], f["line"], f["column"]) for f in found] == [("JAX108", 6, 12)]
    assert found[0]["message"].startswith("JAX raised IndexError here: Slice entries must be static integers")


def test_an_escaped_tracer_is_found_where_it_is_kept(tmp_path):
    text = textwrap.dedent(
        """\
        import jax
        import jax.numpy as jnp

        seen = []

        @jax.jit
        def remember(x):
            seen.append(x)
            return x * 2

        remember(jnp.ones(2))
        """
    )
    p, found = run_script(tmp_path, text, "--no-static")
    assert p.returncode == 1
    assert [(f["code"], f["line"], f["column"]) for f in found] == [("JAX303", 8, 5)]  # the append that kept it
    assert found[0]["message"].startswith("`seen[0]` holds a tracer after `remember` was traced")


def test_a_clean_script_exits_with_its_own_status(tmp_path):
    text = "import jax\nimport sys\nprint(jax.jit(lambda x: x + 1)(1.0))\nsys.exit(3)\n"
    p, found = run_script(tmp_path, text)
    assert found == []
    assert p.returncode == 3
    assert "2.0" in p.stdout


def test_run_needs_an_existing_script(tmp_path):
    p = subprocess.run([sys.executable, "-m", "jaxlint", "run", "missing.py"], cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stderr.strip() == "jaxlint run: error: missing.py: no such file"


SUITE = '''\
import functools
import jax
import jax.numpy as jnp
import pytest


@jax.jit
def clip_negative(x):
    if x.sum() < 0:
        return jnp.zeros_like(x)
    return x


@functools.partial(jax.jit, static_argnums=1)
def scale(x, n):
    return x * n


def test_expects_the_error():
    with pytest.raises(jax.errors.TracerBoolConversionError):
        clip_negative(jnp.ones(4))


def test_steps():
    for step in range(3):
        scale(jnp.ones(2), step)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_each_shape_once(n):
    assert scale(jnp.ones(n), 2).shape == (n,)
'''


def test_pytest_plugin_reports_per_test(tmp_path):
    (tmp_path / "test_model.py").write_text(SUITE)
    out = tmp_path / "found.json"
    args = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "--jaxlint", "--jaxlint-format", "json"]
    p = subprocess.run([sys.executable, *args, "--jaxlint-output", str(out)], cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    found = json.loads(out.read_text())
    # The error the test expected is not a finding; the parametrized test's shapes, one per
    # test, are not recompilations; the loop inside one test is.
    assert [(f["code"], f["line"], f["column"]) for f in found] == [("JAX204", 26, 28)]
    assert found[0]["observed"] == {"count": 2, "test": "test_model.py::test_steps", "tests": 1}
    assert "jaxlint: 1 finding observed, written to found.json; 1 error expected by pytest.raises (not findings)" in p.stdout


def test_pytest_plugin_is_inert_without_the_option(tmp_path):
    (tmp_path / "test_model.py").write_text(SUITE)
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"], cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode == 0
    assert "jaxlint" not in p.stdout
    # Loading the plugin imports neither JAX nor the analysis.
    code = "import sys, jaxlint.pytest_plugin; print(sorted(m for m in sys.modules if m.split('.')[0] in ('jax', 'libcst')))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "[]"


def test_site_kinds_read_the_syntax_around_the_site(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("while x > 0:\n    y = int(x) if x else np.exp(x)\nassert z\n")
    s = str(path)
    assert sites.site_kinds(sites.Site(s, 1, 7, 1, 12)) == ["while"]
    assert sites.site_kinds(sites.Site(s, 2, 9, 2, 15))[0] == "conversion"
    assert sites.site_kinds(sites.Site(s, 2, 19, 2, 20)) == ["if"]
    assert sites.site_kinds(sites.Site(s, 2, 26, 2, 35))[0] == "numpy"
    assert sites.site_kinds(sites.Site(s, 3, 8, 3, 9)) == ["assert"]
    assert sites.choose(["JAX101", "JAX102", "JAX105", "JAX106"], ["while"]) == "JAX102"
    assert sites.choose(["JAX104", "JAX108"], ["call"]) == "JAX108"


def test_miss_explanations_name_their_rule():
    header = "TRACING CACHE MISS at /p/a.py:3:4 (f):\n"
    assert parse_miss(header + "  never seen function:\n    f id=123 defined at /p/a.py:1") == ("f defined at /p/a.py:1", "")
    fresh = header + "  never seen function:\n    <lambda> id=9 defined at /p/a.py:3\n  but seen another function defined on the same line; maybe"
    assert parse_miss(fresh) == ("<lambda> defined at /p/a.py:3", "fresh")
    assert parse_miss("something else") is None
    assert recompile_rule(["fresh"]) == "JAX401"
    assert recompile_rule(["different input types:\n* at x, now f32[]{weak_type=False} and before f32[]{weak_type=True}"]) == "JAX402"
    assert recompile_rule(["different input types:\n* at x, now f32[3] and before f32[2]"]) == "JAX205"
    static = "different input pytree:\n* at input path [0][2], now <class 'Static'> with pytree metadata Static(val={}) and before <class 'Static'> with pytree metadata Static(val={}), so the pytree node metadata does not match"
    assert recompile_rule([static.format(1, 2)]) == "JAX204"
    assert recompile_rule([static.format("<function <lambda> at 0x7f01>", "<function <lambda> at 0x7f02>")]) == "JAX404"
    # Equinox's static part holds the jitted function itself: only what differs decides
    assert recompile_rule([static.format("((<function f at 0x7f01>,), 3)", "((<function f at 0x7f01>,), 0)")]) == "JAX204"
    assert recompile_rule([static.format("((<function f at 0x7f01>,), functools.partial(<function g at 0x7f03>))", "((<function f at 0x7f01>,), functools.partial(<function g at 0x7f04>))")]) == "JAX404"
    assert recompile_rule(["different input pytree:\n* at input path [0], now tuple of length 0 and before tuple of length 1"]) == "JAX403"
    # a different tree inside one argument (another model's parameters) is a new input
    assert recompile_rule(["different input pytree:\n* at input path [0][0], now <class 'dict'> with 2 children and before <class 'dict'> with 3 children, so"]) is None
    assert recompile_rule(["Tracing context doesn't match"]) is None


def test_readme_example_is_what_jaxlint_run_prints(tmp_path):
    import re

    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    section = readme[readme.index("Given this `train.py`") :]
    script = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    printed = re.search(r"```console\n(.*?)```", section, re.S).group(1)
    (tmp_path / "train.py").write_text(script)
    p = subprocess.run([sys.executable, "-m", "jaxlint", "run", "train.py"], cwd=tmp_path, capture_output=True, text=True)
    assert (p.returncode, p.stdout) == (1, printed)


def test_a_tracer_kept_on_an_object_and_a_print_while_tracing(tmp_path):
    text = textwrap.dedent(
        """\
        import jax
        import jax.numpy as jnp


        class Model:
            def __init__(self):
                self.w = jnp.ones(2)
                self.last = None

            def step(self, x):
                self.last = x * self.w
                print("step", x)
                return self.last.sum()


        def main():
            model = Model()
            step = jax.jit(model.step)
            step(jnp.ones(2))
            step(jnp.ones(2))
            print("done", step(jnp.ones(2)))


        main()
        """
    )
    p, found = run_script(tmp_path, text, "--no-static")
    # The write inside the traced method, found from the object the caller holds; the print
    # that ran once, at trace time, with a tracer (the eager print of a result is not one).
    assert [(f["code"], f["line"], f["column"], f["observed"]["count"]) for f in found] == [
        ("JAX303", 11, 9, 1),
        ("JAX302", 12, 9, 1),
    ]
    assert found[0]["message"].startswith("`model.last` holds a tracer after `step` was traced")
    assert p.stdout.count("step JitTracer") == 1


def test_dynamic_mode_confirms_by_running_the_script_what_it_cannot_reach(tmp_path):
    # The jitted function is nested in main(), which returns nothing: the dynamic checks cannot
    # reach it, and running the file as a script shows the error on the same line.
    (tmp_path / "train.py").write_text(
        textwrap.dedent(
            """\
            import jax
            import jax.numpy as jnp


            def main():
                @jax.jit
                def clip(x):
                    if x.sum() < 0:
                        return -x
                    return x

                try:
                    clip(jnp.ones(3))
                except jax.errors.TracerBoolConversionError:
                    pass


            if __name__ == "__main__":
                main()
            """
        )
    )
    p = subprocess.run(
        [sys.executable, "-m", "jaxlint", "--isolated", "--no-cache", "--preview", "--dynamic", "--format", "json", "train.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    (f,) = json.loads(p.stdout)
    assert (f["code"], f["line"], f["dynamic"]) == (
        "JAX101",
        8,
        {"status": "confirmed", "detail": "observed when the file ran as a script"},
    )


STALE = '''\
import jax
import jax.numpy as jnp
import numpy as np

scale = 1.0
rng = np.random.default_rng(0)


@jax.jit
def apply(x):
    return x * scale


@jax.jit
def double(x):
    return x * 2


@jax.jit
def jitter(x):
    return x + rng.normal()


for s in (2.0, 3.0):
    scale = s
    apply(jnp.ones(2))
    double(jnp.ones(2))
    jitter(jnp.ones(2))
'''


def test_stale_values_are_compared_only_when_asked(tmp_path):
    _, found = run_script(tmp_path, STALE, "--check-stale", "--no-static")
    # apply's second call reuses the program traced with scale == 2.0: found where it reads the
    # rebound global.  jitter's noise was drawn once, at trace time, and no name it reads was
    # rebound: found at its call.  double reads nothing that changes.
    assert [(f["code"], f["line"], f["column"]) for f in found] == [("JAX301", 11, 16), ("JAX301", 28, 5)]
    assert found[0]["message"].startswith("`apply` read `scale` when it was traced, and `scale` has been rebound since")
    assert found[1]["message"].startswith("`jitter` returned [")
    _, found = run_script(tmp_path, STALE, "--no-static")
    assert found == []


KEYWORD_THEN_POSITIONAL = '''\
import jax
import jax.numpy as jnp

add = jax.jit(lambda x, y: x + y)
add(jnp.ones(2), jnp.ones(2))
add(jnp.ones(3), jnp.ones(3))
add(jnp.ones(2), y=jnp.ones(2))
'''


def test_a_call_that_recompiles_for_no_reason_in_the_data_is_found_at_its_own_line(tmp_path):
    # Line 6 traces once for a new shape: data, not a bug.  Line 7 passes the same arguments as
    # line 5 by keyword: JAX compiles again for the call's form alone.
    _, found = run_script(tmp_path, KEYWORD_THEN_POSITIONAL, "--no-static")
    assert [(f["code"], f["line"], f["column"]) for f in found] == [("JAX403", 7, 1)]
    assert found[0]["message"].startswith("`<lambda>` was traced again at this call: different input pytree")


def test_a_tracer_has_escaped_when_its_trace_is_over():
    from jaxlint.runtime.effects import tracer_path as _tracer_path

    class Trace:
        def __init__(self, valid):
            self.valid = valid

        def is_valid(self):
            return self.valid

    class Tracer:
        def __init__(self, trace):
            self._trace = trace

    class JVPTracer(Tracer):
        pass

    class DynamicJaxprTracer(Tracer):
        pass

    # an eager transform still running (a custom rule of a grad sees its tracers): live
    assert _tracer_path({"tangents": [JVPTracer(Trace(True))]}, Tracer) is None
    # JAX marks an eager transform's trace invalid when it ends
    assert _tracer_path({"tangents": [JVPTracer(Trace(False))]}, Tracer) == "['tangents'][0]"
    # JAX does not mark a staging trace (jit's) invalid; with nothing staging, its tracer escaped
    assert _tracer_path([DynamicJaxprTracer(Trace(True))], Tracer) == "[0]"


TRACE_TIME_EFFECTS = '''\
import jax
import jax.numpy as jnp

calls = 0
COUNTS = {"n": 0}
log = []
_table = None
shapes = {}


class Stats:
    def __init__(self):
        self.steps = 0


stats = Stats()


@jax.jit
def step(x):
    global calls, _table
    calls += 1
    COUNTS["n"] += 1
    log.append("traced")
    stats.steps = stats.steps + 1
    if _table is None:
        _table = 3
    shapes[x.shape] = x.ndim
    saved = stats.steps
    stats.steps = -1
    stats.steps = saved
    return x * 2


def main():
    total = 0

    @jax.jit
    def count(x):
        nonlocal total
        total += 1
        return x

    for _ in range(3):
        step(jnp.ones(2))
        count(jnp.ones(2))
    traced = 0

    @jax.jit
    def measured(x):
        nonlocal traced
        traced += 1
        return x

    measured(jnp.ones(2))
    measured(jnp.ones(2))
    assert traced == 1
    for _ in range(3):
        halve_each(jnp.ones(2))


made = 0


def halve_each(x):
    def halve(t):
        global made
        made += 1
        return t / 2

    return jax.lax.cond(x.sum() > 0, halve, lambda t: t, x)


main()
'''


def test_writes_that_run_once_per_trace_are_found_where_they_are_made(tmp_path):
    _, found = run_script(tmp_path, TRACE_TIME_EFFECTS, "--no-static")
    # A counter, a dict entry, a log and an attribute changed while `step` was traced, and a
    # nonlocal counter while `count` was: each runs once, not on the three calls.  Not found: a
    # value set up lazily from None, a cache that only gains entries, a save and a restore, a
    # count of traces that an assert checks (code that counts its traces on purpose), and a
    # write in a branch made anew for each call (each call traces it again).
    assert [(f["code"], f["line"], f["column"]) for f in found] == [
        ("JAX303", 22, 5),
        ("JAX303", 23, 5),
        ("JAX303", 24, 5),
        ("JAX303", 25, 5),
        ("JAX303", 41, 9),
    ]
    assert found[0]["message"] == (
        "`calls` was changed while `step` was traced: the write runs once per compilation, "
        "and the calls that reuse the compiled program skip it"
    )
    assert found[2]["message"].startswith("`log` was written while `step` was traced")
    assert found[3]["message"].startswith("`stats.steps` was changed")


def test_a_tracer_on_an_object_with_slots_is_found_where_it_is_stored(tmp_path):
    text = textwrap.dedent(
        """\
        import jax
        import jax.numpy as jnp


        class Box:
            __slots__ = ("c",)


        box = Box()


        def f(x):
            box.c = x * 2
            return x.sum()


        jax.grad(f)(jnp.ones(2))
        """
    )
    _, found = run_script(tmp_path, text, "--no-static")
    # JAX leaves a finished linearization's trace marked valid: at the end of the run every
    # tracer the user's state holds has escaped.
    assert [(f["code"], f["line"], f["column"]) for f in found] == [("JAX303", 13, 5)]
    assert found[0]["message"].startswith("`box.c` holds a tracer")


def test_a_count_an_assertion_checks_is_counted_on_purpose(tmp_path):
    from jaxlint.runtime.effects import asserted

    test_file = tmp_path / "test_cache.py"
    test_file.write_text(
        textwrap.dedent(
            """\
            def test_traced_once(self):
                witness = []
                calls = [0]
                run(witness, calls)
                n = len(witness)
                self.assertEqual(n, 1)
                np.testing.assert_array_equal(calls[0], 1)
            """
        )
    )
    # through a variable assigned from it, and directly in an assert... call
    assert asserted("witness", [str(test_file)])
    assert asserted("calls", [str(test_file)])
    assert not asserted("run", [str(test_file)])


def test_a_set_that_gains_items_is_a_cache_and_one_that_loses_one_changed():
    from jaxlint.runtime.effects import _changes, _signature

    everything = lambda cls: True  # noqa: E731
    seen = {("a", 1), ("b", 2)}
    before = _signature(seen, everything)
    seen |= {("c", i) for i in range(20)}  # may reorder the items already there
    assert [kind for _, kind, _ in _changes(before, _signature(seen, everything))] == ["initialised"] * 20
    before = _signature(seen, everything)
    seen.discard(("a", 1))
    assert [kind for _, kind, _ in _changes(before, _signature(seen, everything))] == ["record"]
