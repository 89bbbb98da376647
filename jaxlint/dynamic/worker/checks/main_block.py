"""The script's ``if __name__ == "__main__":`` block as the driver of a stale-state check.

JAX307 is about a sequence: a call of the jitted function, a change of the object it was
compiled for, another call.  When the script's ``__main__`` block makes that sequence
(``solver.step(y0); solver.set_rhs(growth); solver.step(y0)``), nothing but the block itself can
replay it.  Of the block run only its assignments, imports and definitions, the statements that
call the jitted function (or a function of the module that reaches it), the statements on the
lines that make the change, and the statements that call a method of the module's classes on
an object the block bound (``solver.set_rhs(decay)``); they run in the module's globals, one by one, under the driver
time limit, and the run stops after the first statement that made a call after the change.
Names the block defined stay; names it rebound get their imported values back (as for the
argument capture in jaxlint.dynamic.worker.drivers).
"""

from __future__ import annotations

import ast
from typing import Callable, List, Optional

from jaxlint.dynamic.worker import drivers
from jaxlint.dynamic.worker.counting import Counts
from jaxlint.dynamic.worker.interceptors import StaleRecorder
from jaxlint.dynamic.worker.spans import ChangeWatch, changed_values
from jaxlint.dynamic.worker.targets import watched_target
from jaxlint.runtime.effects import names_read


def statements(path: str, names: set, lines: List[int]) -> List[ast.stmt]:
    """The block's statements that run, in order ([] when the module has no such block or none
    of its statements calls one of ``names``)."""
    src = drivers._source(path)
    if src is None or not src.main:
        return []
    reach = src.reaching(set(names))
    if not any(names_read(s) & reach for s in src.main):
        return []
    methods = {
        f.name for c in src.tree.body if isinstance(c, ast.ClassDef) for f in c.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    bound = set()
    out = []
    for s in src.main:
        spans = any(s.lineno <= ln <= (s.end_lineno or s.lineno) for ln in lines)
        if isinstance(s, drivers._RUNS_DEFINED) or names_read(s) & reach or spans or _own_method_call(s, bound, methods):
            out.append(s)
        if isinstance(s, (ast.Assign, ast.AnnAssign)):
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            bound |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return out


def _own_method_call(s: ast.stmt, bound: set, methods: set) -> bool:
    """``solver.set_rhs(growth)``: a call, as a statement, of a method the module's classes
    define, on an object the block bound (what changes the object between two calls)."""
    if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)):
        return False
    f = s.value.func
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in bound and f.attr in methods


def run(mod, path: str, stmts: List[ast.stmt], done: Callable[[], bool]) -> Optional[str]:
    """Run ``stmts`` in the module's globals until ``done()``; why the run ended early, or None."""
    before = dict(vars(mod))
    try:
        with drivers._Limit():
            drivers.run_statements(mod, path, stmts, done)
    except drivers._TimedOut:
        return f"it ran for more than {drivers.CAPTURE_SECONDS:g} s"
    except (SystemExit, Exception) as e:  # noqa: BLE001 - the driver code may raise anything
        return drivers.why_stopped(e)
    finally:
        for k, v in before.items():
            if vars(mod).get(k) is not v:
                setattr(mod, k, v)
    return None


def check_stale(mod, path, check):
    """JAX307 whose calls the ``__main__`` block makes: the block runs with the calls of the
    jitted function recorded."""
    raw, cls, label = watched_target(mod, check, path)
    attribute = check["attribute"]
    names = {raw.__name__} | set(check["watched"].get("aliases") or ())
    stmts = statements(path, names, [check["line"]] + list(check.get("main_lines") or []))
    if not stmts:
        return "unverified", f"the `__main__` block does not call {label}"
    watch = ChangeWatch(path, check["line"], check["end_line"], attribute)
    with Counts(raw.__code__) as counts:
        rec = StaleRecorder(raw, counts, watch)
        try:
            rec.install(mod, cls, path)
            with watch:
                why = run(mod, path, stmts, lambda: any(c["mine"] and not c["traced"] for c in rec.calls))
        finally:
            rec.uninstall()
    changed = f"line {check['line']} changed `{attribute}`{changed_values(watch)}"
    where = "running the `__main__` block"
    decided = rec.verdict(changed, label, where)
    if decided is not None:
        return decided
    mine = [c for c in rec.calls if c["mine"]]
    if not watch.passed:
        return "unverified", f"{where} did not run line {check['line']}" + (f" ({why})" if why else "")
    if not rec.before:
        return "unverified", f"{where}, {label} was not called before {changed}"
    if mine:
        return "unverified", f"after {changed}, {label} reused its compiled function, but its result is what the function gives run eagerly"
    return "unverified", f"{where}, {label} was not called with the changed object after {changed}" + (f" ({why})" if why else "")
