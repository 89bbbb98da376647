"""The linter's model of JAX, checked against JAX itself.

Each fixture is a real module.  Its ``CASES`` (zero-argument callables) run under the installed
JAX on CPU:

What each code means is read from its rule's ``prevents`` declaration (the same one the dynamic
mode checks findings against); a marked code that no rule declares fails the test.

* a case that raises must raise at a marked line, with an error the mark's rule declares;
* every line marked with a "raises" code must be where some case raises that error (so the
  markers are exactly JAX's failures: unmarked look-alikes in the same cases run fine); for a
  code whose error comes where the flagged declaration is used (``at="use"``), some case must
  raise it, and the cases that raise it at unmarked lines are exactly one per mark;
  a rule whose error comes from inside the flagged call (``within_call``: a captured module's
  ``__call__`` writes its state) is marked on the call, and the error must pass through it;
* every line marked with a "stale" code must run inside a ``FROZEN`` check that returns True
  (the check calls the compiled function, changes the object, calls again and sees the old
  result);
* every line marked with a "frozen" code must run while tracing and not when the compiled
  function is called again (its effect is frozen at trace time);
* a module with "recompiles" marks must have ``FROZEN`` checks that observe the retrace;
* every line marked with a "warns" code is where some case gets that warning, and every
  DeprecationWarning a case gets at a line of the fixture is marked with such a code;
* every line marked with a "wrong-result" code runs in some case (and may raise only an error
  its rule tolerates); the fixture's ``FROZEN`` checks observe the wrong result;
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

pytestmark = pytest.mark.slow  # runs every fixture under JAX

from requirements import require  # noqa: E402

jax = require("jax")

from jax_deprecations import forget_deprecation_warnings  # noqa: E402
from markers import expected_markers  # noqa: E402

from clirun import ROOT  # noqa: E402
FIXTURES = sorted(glob.glob(os.path.join(ROOT, "fixtures", "**", "*.py"), recursive=True))

from jaxlint.rules import RULES_BY_CODE  # noqa: E402


def prevents(code):
    """The rule's declaration of what JAX does; None for a code no rule declares."""
    rule = RULES_BY_CODE.get(code)
    return None if rule is None or rule.prevents.kind == "none" else rule.prevents


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
    frames = _fail_path(err, filenames)
    return frames[-1] if frames else None


def _fail_path(err, filenames):
    """The (file, line) of the fixture's frames the error passed through, outermost first."""
    return [(f.filename, f.lineno) for f in traceback.extract_tb(err.__traceback__) if f.filename in filenames]


def _reraised_from(where):
    """The lines of the ``try`` body whose handler raises at ``where`` (``except TypeError:
    raise``, ``raise ValueError(...) from e``): an error raised there is raised again by the
    handler, and JAX's traceback then names the handler's line."""
    import ast

    fname, line = where
    with open(fname, encoding="utf-8") as fh:
        tree = ast.parse(fh.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            for h in node.handlers:
                if any(isinstance(n, ast.Raise) and n.lineno == line for st in h.body for n in ast.walk(st)):
                    return range(node.body[0].lineno, node.body[-1].end_lineno + 1)
    return ()


def _original(err):
    """The error a handler caught, when it raised another one from it."""
    return err.__cause__ or err.__context__ or err


def _raises(code):
    p = prevents(code)
    return p is not None and p.kind == "raises"


def _error_ok(code, err):
    return _raises(code) and prevents(code).matches(err)


def _within_call(code, err):
    """A code whose error comes from inside the flagged call: it may be marked on any line the
    error passed through."""
    return _error_ok(code, err) and prevents(code).within_call


def _tolerated(code, err):
    p = prevents(code)
    return p is not None and p.kind == "wrong-result" and p.matches(err)


from fixture_units import oracle_units  # noqa: E402

UNITS = oracle_units()


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
    passed_through = {}  # (file, line) -> exception, for every fixture frame of a failure
    twice_frozen = set()
    problems = []
    deprecated_at = set()
    executed = set()
    use_codes = sorted({c for _f, _l, c in want if prevents(c) is not None and prevents(c).kind == "raises" and prevents(c).at == "use"})
    use_failures = {}  # use code -> indices of the cases that fail with its error at an unmarked line
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
            if not marked and where is not None:
                # raised again by an ``except`` handler: the error came from the ``try`` body
                for line in _reraised_from(where):
                    if codes_at.get((where[0], line)):
                        where, marked, err = (where[0], line), codes_at[(where[0], line)], _original(err)
                        break
            path = [(os.path.realpath(f), line) for f, line in _fail_path(err, filenames)]
            for frame_at in path:
                passed_through.setdefault(frame_at, err)
            # a marked call whose error is raised inside the code it runs (within_call)
            outer = any(_within_call(c, err) for frame_at in path for c in codes_at.get(frame_at, set()))
            at_use = [c for c in use_codes if _error_ok(c, err)] if not marked and not outer else []
            if at_use:
                # The error of a declaration flagged elsewhere (a static array parameter, an
                # array in static metadata), raised where the declaration is used.
                use_failures.setdefault(at_use[0], []).append(i)
            elif not outer and not any(_error_ok(c, err) or _tolerated(c, err) for c in marked):
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
        declared = prevents(code)
        if declared is None:
            problems.append(f"{where} is marked {code}, but no rule declares what JAX does for {code}")
        elif declared.kind == "raises" and declared.at == "use":
            # The declaration fails where it is used (a call of the jitted function), not at the mark.
            if not any(_error_ok(code, e) for e in failures.values()):
                problems.append(f"{where} is marked {code} but no case fails with {declared.description}")
        elif declared.kind == "raises" and declared.within_call:
            err = passed_through.get(where)
            if err is None or not _error_ok(code, err):
                problems.append(f"{where} is marked {code} but no case fails inside it with {declared.description}")
        elif declared.kind == "raises":
            err = failures.get(where)
            if err is None or not _error_ok(code, err):
                problems.append(f"{where} is marked {code} but no case fails there with {declared.description}")
        elif declared.kind == "frozen":
            if where not in twice_frozen:
                problems.append(f"{where} is marked {code} but does not run only at trace time in any case")
        elif declared.kind == "recompiles":
            if not getattr(mod, "FROZEN", []):
                problems.append(f"{where} is marked {code} but the module has no FROZEN check that observes the retrace")
        elif declared.kind == "warns":
            if where not in deprecated_at:
                problems.append(f"{where} is marked {code} but no case gets a {declared.description} there")
        elif declared.kind == "wrong-result":
            if where not in executed:
                problems.append(f"{where} is marked {code} but no case runs it")
        elif declared.kind == "stale":
            pass  # checked with the FROZEN checks below
        else:
            problems.append(f"{where} is marked {code}, whose declared kind {declared.kind!r} the oracle cannot check")
    for code, cases in sorted(use_failures.items()):
        # One failing case per mark: a correct look-alike that fails too is one case too many.
        marks = sum(1 for _f, _l, c in want if c == code)
        if len(cases) != marks:
            problems.append(f"{len(cases)} cases (#{', #'.join(map(str, cases))}) fail with the error of {code} at unmarked lines, for {marks} marks")
    warning_codes = {c for _f, _l, c in want if prevents(c) is not None and prevents(c).kind == "warns"}
    for where in sorted(deprecated_at):
        if not codes_at.get(where, set()) & warning_codes and not any(
            prevents(c) is not None and prevents(c).kind == "warns" for c in codes_at.get(where, set())
        ):
            problems.append(f"a case gets a DeprecationWarning at {where}, which is not marked with a deprecation code")
    observed_stale = set()  # lines run by a FROZEN check that saw the old value
    for check in getattr(mod, "FROZEN", []):
        jax.clear_caches()
        with contextlib.redirect_stdout(io.StringIO()), LineRecorder(filenames) as rec:
            ok = check()
        if ok is not True:
            problems.append(f"{check.__name__}() did not observe a frozen value")
        else:
            observed_stale |= {(os.path.realpath(f), line) for f, line in rec.lines}
    for fname, line, code in sorted(want):
        declared = prevents(code)
        if declared is not None and declared.kind == "stale" and (fname, line) not in observed_stale:
            problems.append(f"{(fname, line)} is marked {code} but no FROZEN check runs it and observes the old result")
    assert not problems, "\n".join(problems)
