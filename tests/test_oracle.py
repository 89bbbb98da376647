"""The linter's model of JAX, checked against JAX itself.

Each fixture is a real module.  Its ``CASES`` (zero-argument callables) run under the installed
JAX on CPU:

* a case that raises must raise at a line marked with a JAX1xx/JAX2xx/JAX304 code, with the
  exception JAX raises for that code;
* every line marked JAX1xx/JAX202/JAX203/JAX304 must be where some case raises (so the markers
  are exactly JAX's failures: unmarked look-alikes in the same cases run fine);
* every line marked JAX301/302/303/306 must run while tracing and not when the compiled
  function is called again (its effect is frozen at trace time);
* a case that raises at a line marked JAX601 (removed API) raises AttributeError or ImportError
  there, and every JAX601 line is where some case raises;
* every line marked JAX602 (deprecated API) is where some case gets a DeprecationWarning, and
  every DeprecationWarning a case gets at a line of the fixture is marked JAX602;
* every line marked JAX501 (discarded update) runs in some case; the fixture's ``FROZEN``
  checks observe that the array it meant to update is unchanged;
* every line marked JAX502 (formatted jax.debug.print) runs in some case; a case may raise
  there only with JAX's "Unused keyword arguments" ValueError (``x=x`` next to an f-string);
* every check in ``FROZEN`` (a callable returning True when the trace-time behaviour the
  markers claim is observed: a frozen value, a lost side effect, a retrace on every call)
  must return True.
"""

import contextlib
import glob
import importlib.util
import io
import os
import sys
import traceback
import warnings

import pytest

jax = pytest.importorskip("jax")

from jax_deprecations import forget_deprecation_warnings  # noqa: E402
from markers import expected_markers  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = sorted(glob.glob(os.path.join(ROOT, "fixtures", "**", "*.py"), recursive=True))

ERRORS = {
    "JAX101": ("TracerBoolConversionError",),
    "JAX102": ("TracerBoolConversionError",),
    "JAX105": ("TracerBoolConversionError",),
    "JAX106": ("TracerBoolConversionError",),
    "JAX103": ("TracerIntegerConversionError",),
    "JAX104": ("ConcretizationTypeError", "TracerIntegerConversionError", "TracerBoolConversionError", "TypeError"),
    "JAX107": ("TracerArrayConversionError",),
    "JAX108": (
        "ConcretizationTypeError",
        "NonConcreteBooleanIndexError",
        "IndexError",
        "TypeError",
        "TracerIntegerConversionError",
        "TracerBoolConversionError",
        "ValueError",
    ),
    "JAX201": ("ValueError",),
    "JAX202": ("ValueError",),
    "JAX203": ("ValueError",),
    "JAX304": ("TypeError",),
    "JAX601": ("AttributeError", "ImportError", "ModuleNotFoundError"),
}
WARNING_CODES = ("JAX602",)
RUN_CODES = ("JAX501", "JAX502")
# Codes whose lines need not fail, but may fail only with this exception and message.
TOLERATED = {"JAX502": ("ValueError", "Unused keyword arguments")}
FROZEN_CODES = ("JAX301", "JAX302", "JAX303", "JAX306")


def _load(path):
    """Import a fixture: a plain file under a unique name, a package module by its dotted name."""
    folder = os.path.dirname(path)
    if os.path.isfile(os.path.join(folder, "__init__.py")):
        parts = [os.path.splitext(os.path.basename(path))[0]]
        while os.path.isfile(os.path.join(folder, "__init__.py")):
            folder, pkg = os.path.split(folder)
            parts.insert(0, pkg)
        sys.path.insert(0, folder)
        try:
            return importlib.import_module(".".join(parts))
        finally:
            sys.path.remove(folder)
    name = "oracle_" + os.path.relpath(path, ROOT).replace(os.sep, "_").replace(".", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(folder)
    return mod


class LineRecorder:
    """Lines of one file executed while active."""

    def __init__(self, filenames):
        self.filenames = filenames
        self.lines = set()

    def _trace(self, frame, event, arg):
        filename = frame.f_code.co_filename
        if filename not in self.filenames:
            return None
        if event == "line":
            self.lines.add((filename, frame.f_lineno))
        return self._trace

    def __enter__(self):
        self._old = sys.gettrace()
        sys.settrace(self._trace)
        return self

    def __exit__(self, *exc):
        sys.settrace(self._old)
        return False


def _run(case, filenames):
    """((file, line) executed, exception or None, (file, line) of DeprecationWarnings) for one
    call, stdout swallowed."""
    rec = LineRecorder(filenames)
    err = None
    forget_deprecation_warnings()
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with rec:
                case()
        except Exception as e:  # noqa: BLE001 - the oracle wants every failure
            err = e
    warned = {
        (os.path.realpath(w.filename), w.lineno)
        for w in caught
        if issubclass(w.category, DeprecationWarning) and w.filename in filenames
    }
    return rec.lines, err, warned


def _fail_line(err, filenames):
    frames = [f for f in traceback.extract_tb(err.__traceback__) if f.filename in filenames]
    return (frames[-1].filename, frames[-1].lineno) if frames else None


def _error_ok(code, err):
    name = type(err).__name__
    if name not in ERRORS[code]:
        return False
    if code in ("JAX201", "JAX202"):
        return "Non-hashable static arguments" in str(err)
    if code == "JAX304":
        return "immutable" in str(err)
    return True


from fixture_units import units  # noqa: E402

UNITS = []
for _name, _files in units():
    for _p in _files:
        with open(_p, encoding="utf-8") as fh:
            if "\nCASES = [" in fh.read():
                UNITS.append((_name, _p, _files))


def test_fixtures_have_cases():
    assert len(UNITS) >= 9


@pytest.mark.parametrize("name,path,files", UNITS, ids=[u[0] for u in UNITS])
def test_oracle(name, path, files):
    want = set()
    for f in files:
        with open(f, encoding="utf-8") as fh:
            w, _ = expected_markers(fh.read())
        want |= {(os.path.realpath(f), line, code) for line, code in w}
    codes_at = {}
    for fname, line, code in want:
        codes_at.setdefault((fname, line), set()).add(code)
    mod = _load(path)
    filenames = {os.path.realpath(f) for f in files}
    filenames |= {f for f in files}
    failures = {}  # (file, line) -> exception
    twice_frozen = set()
    deprecated_at = set()
    executed = set()
    problems = []
    for i, case in enumerate(mod.CASES):
        jax.clear_caches()
        first, err, warned = _run(case, filenames)
        deprecated_at |= warned
        executed |= {(os.path.realpath(f), line) for f, line in first}
        if err is not None:
            where = _fail_line(err, filenames)
            if where is not None:
                where = (os.path.realpath(where[0]), where[1])
            marked = codes_at.get(where, set())
            tolerated = any(
                c in TOLERATED and type(err).__name__ == TOLERATED[c][0] and TOLERATED[c][1] in str(err) for c in marked
            )
            if not tolerated and not any(c in ERRORS and _error_ok(c, err) for c in marked):
                problems.append(
                    f"case {i} raised {type(err).__name__} at {where} (marked {sorted(marked) or 'nothing'}): "
                    f"{str(err).splitlines()[0][:120]}"
                )
            failures[where] = err
            continue
        second, err2, _ = _run(case, filenames)
        assert err2 is None, f"case {i} failed only on its second call: {err2!r}"
        twice_frozen |= {(os.path.realpath(f), line) for f, line in first - second}
    for fname, line, code in sorted(want):
        where = (fname, line)
        if code in ERRORS and code != "JAX201":
            err = failures.get(where)
            if err is None or not _error_ok(code, err):
                problems.append(f"{where} is marked {code} but no case fails there with {ERRORS[code]}")
        elif code == "JAX201":
            if not any(_error_ok(code, e) for e in failures.values()):
                problems.append(f"{where} is marked JAX201 but no case fails with a non-hashable static argument")
        elif code in RUN_CODES:
            if where not in executed:
                problems.append(f"{where} is marked {code} but no case runs it")
        elif code in WARNING_CODES:
            if where not in deprecated_at:
                problems.append(f"{where} is marked {code} but no case gets a DeprecationWarning there")
        elif code in FROZEN_CODES:
            if where not in twice_frozen:
                problems.append(f"{where} is marked {code} but does not run only at trace time in any case")
    for where in sorted(deprecated_at):
        if not codes_at.get(where, set()) & set(WARNING_CODES):
            problems.append(f"a case gets a DeprecationWarning at {where}, which is not marked {WARNING_CODES}")
    for check in getattr(mod, "FROZEN", []):
        jax.clear_caches()
        with contextlib.redirect_stdout(io.StringIO()):
            ok = check()
        if ok is not True:
            problems.append(f"{check.__name__}() did not observe a frozen value")
    assert not problems, "\n".join(problems)
