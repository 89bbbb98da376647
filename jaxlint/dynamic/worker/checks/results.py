"""Silent wrong results: a functional update whose result is discarded (JAX501: the variable is
the same array after the statement) and a string formatted from a tracer for
``jax.debug.print`` (JAX502)."""

from __future__ import annotations

import contextlib
import io
import re
import sys

from jaxlint.dynamic.worker import runtime
from jaxlint.dynamic.worker.errors import matches, short
from jaxlint.dynamic.worker.running import run_drivers, trace_once, tracing_or_calling
from jaxlint.dynamic.worker.spans import Watch


def check_unchanged(mod, path, check):
    """JAX501: the statement runs, and the variable is the same array afterwards."""
    var = check["var"]

    def run(raw, driver, argset, self_obj, notes):
        watch = Watch(path, check["line"], check["end_line"], var)
        err = None
        try:
            with watch:
                trace_once(raw, driver, argset, self_obj, driver["how"])
        except Exception as e:  # noqa: BLE001 - the user's code may raise anything
            err = e
        runs = [(b, a) for b, a in watch.runs if b is not None]
        if runs:
            before, after = runs[0]
            if not isinstance(before, (runtime.jax.Array, runtime.jax.core.Tracer)):
                # only a JAX array is sure to be immutable: another object may change in place
                return "refuted", f"`{var}` is a {type(before).__name__}, not a JAX array: line {check['line']} may change it in place"
            if after is before:
                return "confirmed", (
                    f"`{var}` is the same {type(before).__name__} after line {check['line']} ran "
                    f"({tracing_or_calling(driver)} {driver['label']}): the new array was discarded"
                )
            return "refuted", f"`{var}` is another object after line {check['line']} ran ({tracing_or_calling(driver)} {driver['label']})"
        if err is not None:
            notes.append(f"{tracing_or_calling(driver)} {driver['label']} failed: {short(err)}")
        else:
            notes.append(f"{tracing_or_calling(driver)} {driver['label']} did not run line {check['line']}")
        return None

    return run_drivers(mod, path, check, run)


# What a tracer looks like when it is formatted into a string.
TRACER_TEXT = re.compile(r"Tracer\b|Tracer[<(\[]|Traced<")


class FormatRecorder:
    """Records the strings passed to ``jax.debug.print`` / ``jax.debug.callback`` from lines
    ``first``..``last`` of ``path`` while active (the calls still go through)."""

    def __init__(self, path, first, last):
        self.path = path
        self.first = first
        self.last = last
        self.strings = []

    def _wrap(self, fn, all_args):
        def wrapper(*args, **kwargs):
            caller = sys._getframe(1)
            if caller.f_code.co_filename == self.path and self.first <= caller.f_lineno <= self.last:
                values = list(args) + list(kwargs.values()) if all_args else list(args[:1]) + [kwargs.get("fmt")]
                self.strings.extend(v for v in values if isinstance(v, str))
            return fn(*args, **kwargs)

        return wrapper

    def __enter__(self):
        debug = runtime.jax.debug
        self._saved = (debug.print, debug.callback)
        debug.print = self._wrap(self._saved[0], False)
        debug.callback = self._wrap(self._saved[1], True)
        return self

    def __exit__(self, *exc):
        runtime.jax.debug.print, runtime.jax.debug.callback = self._saved
        return False


def check_formatted(mod, path, check):
    """JAX502: the string handed to jax.debug.print was formatted while tracing: it shows a
    tracer (or JAX rejects the keyword arguments it left without a placeholder)."""

    def run(raw, driver, argset, self_obj, notes):
        rec = FormatRecorder(path, check["line"], check["end_line"])
        err = None
        try:
            with rec, contextlib.redirect_stdout(io.StringIO()):
                trace_once(raw, driver, argset, self_obj, driver["how"])
        except Exception as e:  # noqa: BLE001
            err = e
        shown = [t for t in rec.strings if TRACER_TEXT.search(t)]
        if shown:
            text = shown[0] if len(shown[0]) <= 60 else shown[0][:57] + "..."
            return "confirmed", f"the string printed by line {check['line']} is {text!r} ({tracing_or_calling(driver)} {driver['label']})"
        if err is not None and matches(err, check, path):
            return "confirmed", f"{short(err)} ({tracing_or_calling(driver)} {driver['label']})"
        if rec.strings:
            return "refuted", f"the string printed by line {check['line']} shows no tracer: {rec.strings[0][:60]!r}"
        if err is not None:
            notes.append(f"{tracing_or_calling(driver)} {driver['label']} failed: {short(err)}")
        else:
            notes.append(f"{tracing_or_calling(driver)} {driver['label']} did not call jax.debug on line {check['line']}")
        return None

    return run_drivers(mod, path, check, run)
