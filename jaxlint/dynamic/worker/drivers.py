"""Arguments from the module's own driver code, for the worker (jaxlint.dynamic.worker).

When the arguments the engine could read from the source hold a guess, the code that drives the
entry point in the module is run up to its call, and the arguments of that call are captured:

1. the ``if __name__ == "__main__":`` block -- only its assignments, imports and definitions, and
   the statements that call the entry point (or a function of the module that reaches it);
   prints, ``with`` blocks and other statements that do not lead to the call are skipped.  The
   names the block defines that the module did not have after import stay defined (the module's
   functions read them as globals); names it rebinds get their imported values back;
2. then the module-level functions with no required parameters that reach the entry point
   (``main()``, ``demo()``, ``test_step()``), called;
3. then the lambdas without parameters of module-level statements that call it
   (``CASES = [lambda: step(X), ...]``), called;
4. when none of those calls it: the test functions of its package (``def test_*()`` without
   required parameters, in ``test_*.py`` / ``*_test.py`` next to the module or in a ``tests``
   folder next to it or its package), their file imported.

The entry point is replaced, where the module reaches it (its global names), by a stand-in that
records the call and stops the run.  Each run has a time limit.  The captured values are kept in this process only;
the argument set names them by index (value kind ``captured``).
"""

from __future__ import annotations

import ast
import inspect
import os
import signal
import sys
from typing import Dict, List, Optional

from jaxlint.dynamic.worker.imports import import_file, package_name
from jaxlint.runtime.effects import code_objects, names_read

CAPTURE_SECONDS = 10.0
MAX_CAPTURES = 2

VALUES: List[object] = []  # captured argument values; an argument's value {"k": "captured", "i": n}


class _Captured(BaseException):
    """Stops the driver code at the call of the entry point."""


class _TimedOut(BaseException):
    pass


def captured_value(spec):
    return VALUES[spec["i"]]


def _is_main_test(test) -> bool:
    if not isinstance(test, ast.Compare) or len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    consts = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return len(names) == 1 and len(consts) == 1


def _has_parameters(a: ast.arguments) -> bool:
    return bool(a.args or a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg)


class _Source:
    """The module's source, parsed with ``ast`` (never run from here)."""

    def __init__(self, path: str):
        with open(path, "rb") as fh:
            self.tree = ast.parse(fh.read(), filename=path)
        self.path = path
        self.main: List[ast.stmt] = []
        self.defs: Dict[str, ast.FunctionDef] = {}
        self.lambdas: List[ast.Lambda] = []  # lambdas without parameters in module-level statements
        for stmt in self.tree.body:
            if isinstance(stmt, ast.If) and _is_main_test(stmt.test):
                self.main = list(stmt.body)
            elif isinstance(stmt, ast.FunctionDef):
                self.defs[stmt.name] = stmt
            elif not isinstance(stmt, (ast.ClassDef, ast.AsyncFunctionDef)):
                for n in ast.walk(stmt):
                    if isinstance(n, ast.Lambda) and not _has_parameters(n.args):
                        self.lambdas.append(n)

    def reaching(self, names: set) -> set:
        """``names`` and the module-level functions that refer to one of them, transitively."""
        out = set(names)
        refs = {name: names_read(d) for name, d in self.defs.items()}
        changed = True
        while changed:
            changed = False
            for name, r in refs.items():
                if name not in out and r & out:
                    out.add(name)
                    changed = True
        return out


_SOURCES: Dict[str, Optional[_Source]] = {}


def _source(path: str) -> Optional[_Source]:
    if path not in _SOURCES:
        try:
            _SOURCES[path] = _Source(path)
        except (OSError, SyntaxError, ValueError):
            _SOURCES[path] = None
    return _SOURCES[path]


_RUNS_DEFINED = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)


class _StandIn:
    """Replaces the entry point in the module's globals while driver code runs."""

    def __init__(self, mod, raw, obj, path, others=()):
        self.mod = mod
        self.raw = raw
        self.obj = obj
        self.path = path
        # (module, name) of every global bound to the entry point: the module's, and those of
        # the other modules that import it (its tests)
        self.names = [k for k, v in vars(mod).items() if v is obj or v is raw]
        self.bound = [(m, k) for m in (mod,) + tuple(others) for k, v in list(vars(m).items()) if v is obj or v is raw]
        self.saved = {(id(m), k): (m, getattr(m, k)) for m, k in self.bound}
        self.call = None  # (args, kwargs, where)

    def _record(self, args, kwargs):
        frame = sys._getframe(2)
        fn = frame.f_code.co_name
        where = f"the call at line {frame.f_lineno} " + (
            "in the `__main__` block" if fn == "<module>" else "in a lambda" if fn == "<lambda>" else f"in {fn}()"
        )
        if frame.f_code.co_filename != self.path:
            where += f" of {os.path.basename(frame.f_code.co_filename)}"
        self.call = (args, kwargs, where)
        raise _Captured()

    def __enter__(self):
        def stand_in(*args, **kwargs):
            if not self.active:
                # kept past the driver run by what the driver built with it (``jax.jit(f)``
                # bound to a global, a callback stored on an object): the entry point itself
                return self.obj(*args, **kwargs)
            self._record(args, kwargs)

        self.active = True
        for m, k in self.bound:
            setattr(m, k, stand_in)
        return self

    def __exit__(self, *exc):
        self.active = False
        for (_, k), (m, v) in self.saved.items():
            setattr(m, k, v)
        return False


class _Limit:
    def __enter__(self):
        def on_alarm(signum, frame):
            raise _TimedOut()

        self.old = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, CAPTURE_SECONDS)
        return self

    def __exit__(self, *exc):
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.old)
        return False


def _run(stand_in, run) -> Optional[str]:
    """Run ``run()`` under the stand-in; the reason it did not reach the call, or None."""
    try:
        with _Limit(), stand_in:
            run()
    except _Captured:
        return None
    except _TimedOut:
        return f"it ran for more than {CAPTURE_SECONDS:g} s without calling it"
    except (SystemExit, Exception) as e:  # noqa: BLE001 - the driver code may raise anything
        return why_stopped(e)
    return "it never called it"


def why_stopped(e: BaseException) -> str:
    if isinstance(e, SystemExit):
        return f"it called sys.exit({e.code!r})"
    return f"it raised {type(e).__name__}: {str(e).splitlines()[0][:120] if str(e) else ''}".rstrip(": ")


def run_statements(mod, path, stmts, done=lambda: False) -> None:
    """Run ``stmts`` of the module one by one in its globals, until ``done()``."""
    for s in stmts:
        exec(compile(ast.Module(body=[s], type_ignores=[]), path, "exec"), vars(mod))  # noqa: S102 - the module's own driver block, under --dynamic
        if done():
            return


def _drive(mod, path, raw, obj, run, what, found, notes, others=()):
    """Run ``run()`` (``what``: the driver code it is) with the entry point replaced, in the
    module and in ``others``; the call it made goes to ``found`` as (where, args, kwargs), why
    it made none to ``notes``.  Returns the stand-in."""
    stand_in = _StandIn(mod, raw, obj, path, others)
    why = _run(stand_in, run)
    if stand_in.call is not None:
        args, kwargs, where = stand_in.call
        found.append((where, args, kwargs))
    elif why:
        notes.append(f"{what} did not call {raw.__name__}() ({why})")
    return stand_in


def capture(mod, path, raw, obj, names, tests=True) -> tuple:
    """([(source, args, kwargs)], notes): the calls of the entry point the module's driver code
    makes (at most MAX_CAPTURES), and why each driver did not reach it.  ``tests``: when the
    module's own code makes none, look in the test functions of its package too."""
    src = _source(path)
    if src is None:
        return [], []
    names = set(names) | {raw.__name__}
    reach = src.reaching(names)
    found, notes = [], []
    if src.main and any(names_read(s) & reach for s in src.main):
        before = dict(vars(mod))
        stmts = [s for s in src.main if isinstance(s, _RUNS_DEFINED) or names_read(s) & reach]

        stand_in = _drive(mod, path, raw, obj, lambda: run_statements(mod, path, stmts), "the `__main__` block", found, notes)
        # names the block defined stay (the module's functions read them); rebound ones go back
        for k, v in before.items():
            if vars(mod).get(k) is not v and k not in stand_in.names:
                setattr(mod, k, v)
    for name in sorted(reach - names):
        if len(found) >= MAX_CAPTURES:
            break
        d = src.defs.get(name)
        if d is None or _required(d):
            continue
        fn = getattr(mod, name, None)
        if not callable(fn):
            continue
        _drive(mod, path, raw, obj, fn, f"{name}()", found, notes)
    for lam in src.lambdas:
        if len(found) >= MAX_CAPTURES:
            break
        if not names_read(lam.body) & reach:
            continue
        fn = _module_lambda(mod, path, lam.lineno)
        if fn is None:
            continue
        _drive(mod, path, raw, obj, fn, f"the lambda at line {lam.lineno}", found, notes)
    if not found and tests:
        found.extend(_from_tests(mod, path, raw, obj, names, notes))
    return found[:MAX_CAPTURES], notes


TEST_FILES = 20  # test files looked at per module


def _test_files(path):
    """Test files of the package around ``path``: ``test_*.py`` / ``*_test.py`` next to it, in
    a ``tests`` or ``test`` folder next to it, next to its package or above its package."""
    folders = [os.path.dirname(path)]
    package = package_name(path)
    top = package[0] if package else os.path.dirname(path)
    for base in dict.fromkeys([os.path.dirname(path), top, os.path.dirname(top)]):
        for name in ("tests", "test"):
            folders.append(os.path.join(base, name))
    out = []
    for folder in dict.fromkeys(folders):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for n in names:
            if n.endswith(".py") and (n.startswith("test_") or n.endswith("_test.py")):
                full = os.path.realpath(os.path.join(folder, n))
                if full != path:
                    out.append(full)
    return out[:TEST_FILES]


def _from_tests(mod, path, raw, obj, names, notes):
    """Calls of the entry point made by the test functions of its package (module-level
    ``def test_*()`` without required parameters whose source names it)."""
    found = []
    for test_path in _test_files(path):
        if len(found) >= MAX_CAPTURES:
            break
        src = _source(test_path)
        if src is None:
            continue
        reach = src.reaching(set(names))
        tests = [
            d for n, d in src.defs.items() if n.startswith("test") and n not in names and names_read(d) & reach and not _required(d)
        ]
        if not tests:
            continue
        try:
            with _Limit():
                test_mod = import_file(test_path)
        except (Exception, _TimedOut, SystemExit) as e:  # noqa: BLE001 - the test module may raise anything
            notes.append(f"importing {os.path.basename(test_path)} failed ({type(e).__name__})")
            continue
        for d in tests:
            fn = getattr(test_mod, d.name, None)
            if not callable(fn):
                continue
            what = f"{d.name}() of {os.path.basename(test_path)}"
            if _drive(mod, path, raw, obj, fn, what, found, notes, others=(test_mod,)).call is not None:
                break
    return found


def _module_lambda(mod, path, line):
    """The lambda without parameters defined on ``line`` of the module, held by a global or an
    element of a global list, tuple or dict; else None."""
    seen = []
    for v in list(vars(mod).values()):
        seen.append(v)
        if isinstance(v, (list, tuple)):
            seen.extend(v)
        elif isinstance(v, dict):
            seen.extend(v.values())
    for v in seen:
        code = getattr(v, "__code__", None)
        if (
            inspect.isfunction(v)
            and code.co_name == "<lambda>"
            and code.co_filename == path
            and code.co_firstlineno == line
            and code.co_argcount == 0
        ):
            return v
    return None


def _required(d: ast.FunctionDef) -> bool:
    a = d.args
    pos = a.posonlyargs + a.args
    return len(pos) > len(a.defaults) or any(x is None for x in a.kw_defaults)


def _global_reads(fn, mod, depth=2) -> set:
    """Global names the code of ``fn`` reads (its nested functions' too), and, ``depth`` calls
    deep, those of the module's functions it names."""
    code = getattr(fn, "__code__", None)
    out = {name for c in code_objects(code) for name in c.co_names} if code is not None else set()
    if depth > 0:
        for name in list(out):
            g = vars(mod).get(name)
            if inspect.isfunction(g) and g is not fn and getattr(g, "__module__", None) == mod.__name__:
                out |= _global_reads(g, mod, depth - 1)
    return out


def reads_driver_globals(mod, path, raw) -> bool:
    """Whether ``raw`` (or a function of the module it calls) reads a global that only the
    module's ``__main__`` block defines."""
    src = _source(path)
    if src is None or not src.main:
        return False
    defined = set()
    for stmt in src.main:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                defined.add(n.id)
            elif isinstance(n, (ast.FunctionDef, ast.ClassDef)):
                defined.add(n.name)
            elif isinstance(n, ast.alias):
                defined.add((n.asname or n.name).split(".")[0])
    missing = {n for n in defined if n not in vars(mod)}
    return bool(missing & _global_reads(raw, mod))


_DONE: Dict[tuple, tuple] = {}


def argsets(mod, path, driver, raw, obj) -> tuple:
    """(argument sets built from the calls the driver code makes, notes), in the form of the
    driver's own argument sets; the driver code runs once per entry point."""
    if driver.get("target", {}).get("method") or driver.get("target", {}).get("factory"):
        return [], []
    key = (path, id(raw), driver["target"].get("qualname"))
    if key not in _DONE:
        _DONE[key] = _argsets(mod, path, driver, raw, obj)
    return _DONE[key]


def _argsets(mod, path, driver, raw, obj) -> tuple:
    calls, notes = capture(mod, path, raw, obj, [driver["target"]["qualname"]] + list(driver.get("aliases") or []))
    statics = set((driver.get("statics") or {}).get("names") or ())
    out = []
    try:
        sig = inspect.signature(raw)
    except (TypeError, ValueError):
        return [], notes
    for where, args, kwargs in calls:
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as e:
            notes.append(f"the arguments of {where} do not fit {raw.__name__}(): {e}")
            continue
        nums = set((driver.get("statics") or {}).get("nums") or ())
        params = list(sig.parameters)
        spec_args = []
        for name, value in bound.arguments.items():
            p = sig.parameters[name]
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                return [], notes + ["its driver code passes *args or **kwargs"]
            VALUES.append(value)
            kind = "posonly" if p.kind == p.POSITIONAL_ONLY else ("kw" if p.kind == p.KEYWORD_ONLY else "pos")
            spec_args.append(
                {
                    "name": name,
                    "kind": kind,
                    "static": name in statics or params.index(name) in nums,
                    "value": {"k": "captured", "i": len(VALUES) - 1},
                }
            )
        out.append({"source": f"{where}, run up to it", "args": spec_args, "captured": True})
    return out, notes
