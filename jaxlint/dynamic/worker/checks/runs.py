"""Checks that run the code around the finding as it is, with the jitted calls recorded: a
static object changed between two calls (JAX307), the calls one line makes in a loop
(JAX204/JAX205/JAX401), and the jitted objects a line makes anew (JAX401)."""

from __future__ import annotations

from jaxlint.dynamic.worker.counting import Counts
from jaxlint.dynamic.worker.errors import Unverified, pick_note, raised, short, times
from jaxlint.dynamic.worker.interceptors import FreshJits, LineCalls, StaleRecorder
from jaxlint.dynamic.worker.running import run_recorded, runs_as_written, trace_once
from jaxlint.dynamic.worker.checks import main_block
from jaxlint.dynamic.worker.spans import ChangeWatch, changed_values
from jaxlint.dynamic.worker.targets import watched_target


def check_stale(mod, path, check):
    """JAX307: run the code around the first call (a method twice on one instance) with the
    jitted function's calls recorded, and look at the calls made after the lines ran."""
    if "main_lines" in check:
        return main_block.check_stale(mod, path, check)
    raw, cls, label = watched_target(mod, check, path)
    attribute = check["attribute"]
    notes = []
    for driver, runner, self_obj, argset in runs_as_written(mod, path, check, notes):
        watch = ChangeWatch(path, check["line"], check["end_line"], attribute)
        err = None
        with Counts(raw.__code__) as counts:
            rec = StaleRecorder(raw, counts, watch)
            try:
                rec.install(mod, cls, path)
                with watch:
                    for _ in range(2 if check.get("repeat") else 1):
                        trace_once(runner, driver, argset, self_obj, "call")
            except Exception as e:  # noqa: BLE001 - the user's code may raise anything
                err = e
            finally:
                rec.uninstall()
        changed = f"line {check['line']} changed `{attribute}`{changed_values(watch)}"
        decided = rec.verdict(changed, label, f"running {driver['label']}")
        if decided is not None:
            return decided
        mine = [c for c in rec.calls if c["mine"]]
        if (mine or watch.passed) and not rec.before:
            notes.append(f"running {driver['label']}, {label} was not called before {changed}")
        elif any(c["traced"] for c in mine):
            notes.append(f"after {changed}, {label} traced again, for arguments of other shapes (running {driver['label']})")
        elif mine:
            notes.append(f"after {changed}, {label} reused its compiled function, but its result is what the function gives run eagerly")
        elif not watch.passed:
            notes.append(f"running {driver['label']} did not run line {check['line']}{raised(err, ' (it raised {})')}")
        else:
            notes.append(f"running {driver['label']}, {label} was not called with the changed object after {changed}{raised(err, ' (it raised {})')}")
    return "unverified", pick_note(notes, check)


def check_host_calls(mod, path, check):
    """JAX204/JAX205/JAX401 when the loop's values are not the loop variable's: run the code
    around the call as it is, counting the traces and compilations of each call the finding's
    line makes; the last call repeated is the control."""
    raw, cls, label = watched_target(mod, check, path)
    first = min(check["line"], check.get("call_line") or check["line"])
    notes = []
    for driver, runner, self_obj, argset in runs_as_written(mod, path, check, notes):
        with Counts(raw.__code__) as counts:
            rec = LineCalls(raw, counts, path, first, check["end_line"])
            err = run_recorded(rec, mod, cls, path, runner, driver, argset, self_obj)
            calls = rec.calls
            again = None
            if len(calls) >= 2:
                _t, _k, ref, args, kw = calls[-1]
                real = ref()
                try:
                    if real is None:
                        raise Unverified("the jitted object no longer exists")
                    again = counts.call(real, args, kw)[1:]
                except Exception as e:  # noqa: BLE001
                    err = err or e
        running = f"running {driver['label']}"
        if len(calls) < 2:
            notes.append(f"{running}, line {check['line']} called {label} {times(len(calls)) if calls else 'never'}{raised(err)}")
            continue
        if again is None:
            notes.append(f"{running}, repeating the last call of {label} failed: {short(err)}")
            continue
        if again != (0, 0):
            return "unverified", f"{label} traced again when its last call was repeated with the same arguments"
        later = calls[1:]
        retraced = sum(1 for t, k, *_ in later if t and k)
        traces = sum(t for t, *_ in calls)
        compiles = sum(k for _t, k, *_ in calls)
        if retraced and check.get("every") and retraced < len(later):
            notes.append(
                f"{label} traced {times(traces)} and compiled {times(compiles)} for the {len(calls)} calls "
                f"line {check['line']} made ({running}): not on every call"
            )
            continue
        if retraced:
            return "confirmed", (
                f"{label} traced {times(traces)} and compiled {times(compiles)} for the {len(calls)} calls "
                f"line {check['line']} made ({running}); the last call repeated compiled nothing"
            )
        if all(t == 0 and k == 0 for t, k, *_ in later):
            return "refuted", f"{label} traced once for the {len(calls)} calls line {check['line']} made ({running})"
        notes.append(f"{label} traced {times(traces)} and compiled {times(compiles)} for the {len(calls)} calls line {check['line']} made")
    return "unverified", pick_note(notes, check)


def check_jit_calls(mod, path, check):
    """JAX401 on ``jax.jit(...)`` of an object the worker cannot rebuild: run the code around
    it as it is, with the first call of each jitted object the lines make recorded."""
    notes = []
    for driver, runner, self_obj, argset in runs_as_written(mod, path, check, notes):
        running = f"running {driver['label']}"
        with Counts(None) as counts:
            rec = FreshJits(counts, path, check["line"], check["end_line"])
            err = run_recorded(rec, mod, None, None, runner, driver, argset, self_obj)
        firsts = [m["calls"][0] for m in rec.made if m["calls"]]
        if len(firsts) < 2:
            notes.append(f"{running}, line {check['line']} made {len(firsts)} jitted object(s) that were called{raised(err)}")
            continue
        if len({sig for _t, _k, sig in firsts}) > 1:
            # other shapes or values would trace again with one jitted object too
            notes.append(f"{running}, the objects `jax.jit` made on line {check['line']} were called with different arguments")
            continue
        programs = {m.get("program") for m in rec.made if m["calls"]}
        if None in programs or len(programs) > 1:
            # a new program each time (a loop variable in the partial) is what is asked for
            what = "could not all be lowered" if None in programs else "compiled different programs"
            notes.append(f"{running}, the objects `jax.jit` made on line {check['line']} {what}")
            continue
        later = firsts[1:]
        compiled = f"compiled {times(sum(k for _t, k, _s in firsts))}"
        counted = f"traced {times(sum(t for t, *_ in firsts))} and {compiled}"
        if all(t for t, *_ in later):
            return "confirmed", (
                f"each of the {len(firsts)} objects `jax.jit` made on line {check['line']} traced its function again on "
                f"its first call, with arguments of the same shapes and dtypes, into the same program ({compiled}, {running})"
            )
        if not any(t or k for t, k, _s in later):
            return "refuted", f"the {len(firsts)} objects `jax.jit` made on line {check['line']} shared one trace ({running})"
        notes.append(f"the {len(firsts)} objects `jax.jit` made on line {check['line']} {counted}: not each of them")
    return "unverified", pick_note(notes, check)
