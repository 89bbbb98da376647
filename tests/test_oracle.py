"""The linter's model of JAX, checked against JAX itself.

Each fixture is a real module.  Its ``CASES`` (zero-argument callables) run under the installed
JAX on CPU:

* a case that raises must raise at a line marked with a JAX1xx/JAX2xx/JAX304 code, with the
  exception JAX raises for that code;
* every line marked JAX1xx/JAX202/JAX203/JAX304 must be where some case raises (so the markers
  are exactly JAX's failures: unmarked look-alikes in the same cases run fine);
* every line marked JAX301/302/303/306 must run while tracing and not when the compiled
  function is called again (its effect is frozen at trace time);
* every check in ``FROZEN`` (a callable returning True when the frozen value or effect is
  observed) must return True.
"""

import contextlib
import glob
import importlib.util
import io
import os
import sys
import traceback

import pytest

jax = pytest.importorskip("jax")

from markers import expected_markers  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = sorted(glob.glob(os.path.join(ROOT, "fixtures", "**", "*.py"), recursive=True))

ERRORS = {
    "JAX101": ("TracerBoolConversionError",),
    "JAX102": ("TracerBoolConversionError",),
    "JAX105": ("TracerBoolConversionError",),
    "JAX106": ("TracerBoolConversionError",),
    "JAX103": ("TracerIntegerConversionError",),
    "JAX104": ("ConcretizationTypeError", "TracerIntegerConversionError", "TracerBoolConversionError"),
    "JAX107": ("TracerArrayConversionError",),
    "JAX108": ("ConcretizationTypeError", "NonConcreteBooleanIndexError", "IndexError", "TypeError"),
    "JAX201": ("ValueError",),
    "JAX202": ("ValueError",),
    "JAX203": ("ValueError",),
    "JAX304": ("TypeError",),
}
FROZEN_CODES = ("JAX301", "JAX302", "JAX303", "JAX306")


def _load(path):
    name = "oracle_" + os.path.relpath(path, ROOT).replace(os.sep, "_").replace(".", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(path))
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(os.path.dirname(path))
    return mod


class LineRecorder:
    """Lines of one file executed while active."""

    def __init__(self, filename):
        self.filename = filename
        self.lines = set()

    def _trace(self, frame, event, arg):
        if frame.f_code.co_filename != self.filename:
            return None
        if event == "line":
            self.lines.add(frame.f_lineno)
        return self._trace

    def __enter__(self):
        self._old = sys.gettrace()
        sys.settrace(self._trace)
        return self

    def __exit__(self, *exc):
        sys.settrace(self._old)
        return False


def _run(case, filename):
    """(lines executed, exception or None) for one call, stdout swallowed."""
    rec = LineRecorder(filename)
    err = None
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            with rec:
                case()
        except Exception as e:  # noqa: BLE001 - the oracle wants every failure
            err = e
    return rec.lines, err


def _fail_line(err, filename):
    frames = [f for f in traceback.extract_tb(err.__traceback__) if f.filename == filename]
    return frames[-1].lineno if frames else None


def _error_ok(code, err):
    name = type(err).__name__
    if name not in ERRORS[code]:
        return False
    if code in ("JAX201", "JAX202"):
        return "Non-hashable static arguments" in str(err)
    if code == "JAX304":
        return "immutable" in str(err)
    return True


with_cases = []
for p in FIXTURES:
    with open(p, encoding="utf-8") as fh:
        if "CASES" in fh.read():
            with_cases.append(p)


def test_fixtures_have_cases():
    assert len(with_cases) >= 8


@pytest.mark.parametrize("path", with_cases, ids=lambda p: os.path.relpath(p, ROOT))
def test_oracle(path):
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    want, _ = expected_markers(text)
    codes_at = {}
    for line, code in want:
        codes_at.setdefault(line, set()).add(code)
    filename = os.path.abspath(path)
    mod = _load(path)
    filename = mod.__file__
    failures = {}  # line -> exception
    twice_frozen = set()
    problems = []
    for i, case in enumerate(mod.CASES):
        jax.clear_caches()
        first, err = _run(case, filename)
        if err is not None:
            line = _fail_line(err, filename)
            marked = codes_at.get(line, set())
            if not any(c in ERRORS and _error_ok(c, err) for c in marked):
                problems.append(
                    f"case {i} raised {type(err).__name__} at line {line} (marked {sorted(marked) or 'nothing'}): "
                    f"{str(err).splitlines()[0][:120]}"
                )
            failures[line] = err
            continue
        second, err2 = _run(case, filename)
        assert err2 is None, f"case {i} failed only on its second call: {err2!r}"
        twice_frozen |= first - second
    for line, code in sorted(want):
        if code in ERRORS and code != "JAX201":
            err = failures.get(line)
            if err is None or not _error_ok(code, err):
                problems.append(f"line {line} is marked {code} but no case fails there with {ERRORS[code]}")
        elif code == "JAX201":
            if not any(_error_ok(code, e) for e in failures.values()):
                problems.append(f"line {line} is marked JAX201 but no case fails with a non-hashable static argument")
        elif code in FROZEN_CODES:
            if line not in twice_frozen:
                problems.append(f"line {line} is marked {code} but does not run only at trace time in any case")
    for check in getattr(mod, "FROZEN", []):
        jax.clear_caches()
        with contextlib.redirect_stdout(io.StringIO()):
            ok = check()
        if ok is not True:
            problems.append(f"{check.__name__}() did not observe a frozen value")
    assert not problems, "\n".join(problems)
