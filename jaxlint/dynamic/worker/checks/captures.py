"""JAX301, a value captured by closure or read as a global frozen into the trace: the trace
compared before and after the variable changes, or, for a function nested in one that returns
nothing, the outer function run as it is with the nested function's jitted calls recorded."""

from __future__ import annotations

import inspect

from jaxlint.dynamic.worker import runtime
from jaxlint.dynamic.worker.counting import Counts
from jaxlint.dynamic.worker.errors import guessed_note, pick_note, raised, short
from jaxlint.dynamic.worker.interceptors import NestedCalls
from jaxlint.dynamic.worker.running import runs_as_written, trace_once
from jaxlint.dynamic.worker.targets import resolve_target
from jaxlint.dynamic.worker.values import same_jaxpr, variants


def check_capture(mod, path, check):
    var = check.get("var")
    if var and check.get("nested") and check["drivers"]:
        return check_capture_in_run(mod, path, check)
    if not var or not check["drivers"]:
        return "unverified", check.get("reason") or "cannot tell which variable is captured"
    driver = check["drivers"][0]
    raw, _obj, cls, self_obj = resolve_target(mod, driver, path)
    if var in raw.__code__.co_freevars:
        cell = raw.__closure__[raw.__code__.co_freevars.index(var)]
        get, put = (lambda: cell.cell_contents), (lambda v: setattr(cell, "cell_contents", v))
        shown = f"the closure variable `{var}`"
    elif var in raw.__globals__:
        g = raw.__globals__
        get, put = (lambda: g[var]), (lambda v: g.__setitem__(var, v))
        shown = f"`{var}`"
    else:
        return "unverified", f"`{var}` is neither a module global nor a closure variable of {driver['label']}"
    fac = driver["target"].get("factory")
    built = f" (built by calling {fac['qualname']}())" if fac else ""
    try:
        get()
    except ValueError:
        return "unverified", f"{shown} of {driver['label']} has no value yet{built}"
    old = get()
    alts = [a for a in variants(old) if a is not old]
    if not alts:
        return "unverified", f"cannot make a different value of type {type(old).__name__} for `{var}`"
    notes = []
    for argset in driver["argsets"]:
        try:
            runtime.jax.clear_caches()
            first = trace_once(raw, driver, argset, self_obj, "jaxpr")
        except Exception as e:  # noqa: BLE001
            notes.append(f"tracing {driver['label']} failed: {short(e)}")
            continue
        changed = False
        try:
            for alt in alts:
                put(alt)
                runtime.jax.clear_caches()
                try:
                    second = trace_once(raw, driver, argset, self_obj, "jaxpr")
                except Exception:  # noqa: BLE001 - a different value that breaks the trace is still a dependency
                    changed = True
                    break
                if not same_jaxpr(first, second):
                    changed = True
                    break
        finally:
            put(old)
        if changed:
            return "confirmed", f"the trace of {driver['label']} changes when {shown} changes{built}"
        return "refuted", f"the trace of {driver['label']} does not depend on {shown}{built}"
    g = guessed_note(driver)
    return "unverified", g or pick_note(notes, check)


RUN_ITEMS = 8  # items taken from an outer function that is a generator


def check_capture_in_run(mod, path, check):
    """JAX301 in a function nested in one that returns nothing: run the outer function as it
    is (its items, for a generator) with the nested function's jitted calls recorded."""
    var = check["var"]
    nested = check["nested"]
    shown = f"jitted {nested['name']}()"
    notes = []
    for driver, runner, self_obj, argset in runs_as_written(mod, path, check, notes):
        running = f"running {driver['label']}"
        err = None
        with Counts(None) as counts, NestedCalls(counts, path, nested, var) as rec:
            try:
                result = trace_once(runner, driver, argset, self_obj, "call")
                if inspect.isgenerator(result):
                    for _ in zip(range(RUN_ITEMS), result):
                        pass
            except Exception as e:  # noqa: BLE001 - the user's code may raise anything
                err = e
        decided = rec.verdict(f"`{var}` was rebound", shown, running, key="changed")
        if decided is not None:
            return decided
        changed = [c for c in rec.calls if c["changed"]]
        why = raised(err)
        if any(c["traced"] for c in changed):
            notes.append(f"after `{var}` was rebound, {shown} traced again, for arguments of other shapes ({running})")
        elif changed:
            notes.append(f"after `{var}` was rebound, {shown} reused its compiled function, but its result is what the function gives run eagerly")
        elif not rec.made:
            notes.append(f"{running} did not jit {nested['name']}(){why}")
        else:
            notes.append(f"{running}, `{var}` was not rebound between two calls of {shown}{why}")
    return "unverified", pick_note(notes, check)
