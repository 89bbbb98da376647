"""Errors and effects while tracing: the finding's line raises the rule's error under
``jax.make_jaxpr`` or ``jax.jvp`` (a trace check), and a line that runs only while tracing and
not on the cached second call (an effect frozen at trace time)."""

from __future__ import annotations

import contextlib
import io

from jaxlint.dynamic.worker import runtime
from jaxlint.dynamic.worker.errors import file_frames, matches, pick_note, short
from jaxlint.dynamic.worker.running import resolved_drivers, trace_once
from jaxlint.dynamic.worker.spans import LineTracker
from jaxlint.dynamic.worker.targets import jitted_callable
from jaxlint.dynamic.worker.values import built_call


def check_trace(mod, path, check):
    notes = []
    refuted = False  # some driver traced the line without error; another may still fail there
    for driver, raw, _obj, _cls, self_obj in resolved_drivers(mod, path, check, notes):
        how = driver["how"]
        attempts = [(a, t) for a in driver["argsets"] for t in (driver.get("then") or [None])][:16]
        for argset, then_set in attempts:
            runtime.jax.clear_caches()
            tracker = LineTracker(path, check["line"], check["end_line"])
            err = None
            try:
                with tracker:
                    trace_once(raw, driver, argset, self_obj, how, then_set)
            except Exception as e:  # noqa: BLE001 - the user's code may raise anything
                err = e
            if err is not None and matches(err, check, path):
                return "confirmed", f"{type(err).__name__} tracing {driver['label']}"
            if err is None and tracker.passed:
                refuted = True
                break
            if err is not None:
                if any(check["line"] <= ln <= check["end_line"] for ln in file_frames(err, path)):
                    notes.append(f"line {check['line']} raised {short(err)}")
                elif tracker.passed:
                    notes.append(f"line {check['line']} traced without error, but tracing {driver['label']} then failed: {short(err)}")
                else:
                    notes.append(f"tracing {driver['label']} failed before line {check['line']}: {short(err)}")
            else:
                notes.append(f"tracing {driver['label']} did not reach line {check['line']}")
    if refuted:
        return "refuted", "traced without error"
    return "unverified", pick_note(notes, check)


def check_effect(mod, path, check):
    notes = []
    for driver, raw, obj, cls, self_obj in resolved_drivers(mod, path, check, notes):
        fn, made = jitted_callable(mod, driver, raw, obj, cls, self_obj)
        for argset in driver["argsets"]:
            counts = []
            outputs = []
            err = None
            try:
                for _ in range(2):
                    pos, kw = built_call(argset, driver)
                    tracker = LineTracker(path, check["line"], check["end_line"])
                    buf = io.StringIO()
                    with contextlib.redirect_stdout(buf), tracker:
                        r = fn(*pos, **kw)
                        runtime.jax.block_until_ready(r)
                    counts.append(tracker.hits)
                    outputs.append(buf.getvalue())
            except Exception as e:  # noqa: BLE001
                err = e
            if err is not None:
                notes.append(f"calling {driver['label']} failed: {short(err)}")
                continue
            if counts[0] == 0:
                notes.append(f"calling {driver['label']} did not reach line {check['line']}")
                continue
            if check["code"] == "JAX302" and not outputs[0]:
                notes.append(f"line {check['line']} printed nothing")
                continue
            if counts[1] == 0:
                if made:
                    return "confirmed", f"runs only while tracing {driver['label']} under jax.jit"
                return "confirmed", f"runs while tracing {driver['label']}, not on the cached second call"
            if not made:
                return "refuted", f"runs on every call of {driver['label']}"
            notes.append(f"line {check['line']} ran on both calls")
    return "unverified", pick_note(notes, check)
