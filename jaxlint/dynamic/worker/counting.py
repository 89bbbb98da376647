"""Counting traces and XLA compilations while the user's code runs: a trace is a run of the
function's code object (``sys.setprofile``), a compilation a backend-compile event of
``jax.monitoring``.  The recompilation checks compare these counts between calls."""

from __future__ import annotations

import sys

from jaxlint.dynamic.worker import runtime


BACKEND_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"


class Counts:
    """Traces and XLA compilations while active.

    A trace is counted each time the Python function's code object starts running (``sys.setprofile``
    "call" events): JAX runs the function once per trace and never on a cache hit.  Compilations are
    the backend-compile events of the public ``jax.monitoring`` API."""

    def __init__(self, code):
        self.codes = {code} if code is not None else set()
        self.traces = 0
        self.compiles = 0

    def _profile(self, frame, event, arg):
        if event == "call" and frame.f_code in self.codes:
            self.traces += 1

    def _event(self, event, duration, **kw):
        if event == BACKEND_COMPILE_EVENT:
            self.compiles += 1

    def call(self, fn, args, kw):
        """(result, traces, compilations) of one call of ``fn``, its result waited for."""
        t0, k0 = self.traces, self.compiles
        result = fn(*args, **kw)
        runtime.jax.block_until_ready(result)
        return result, self.traces - t0, self.compiles - k0

    def __enter__(self):
        self._old = sys.getprofile()
        runtime.jax.monitoring.register_event_duration_secs_listener(self._event)
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc):
        sys.setprofile(self._old)
        runtime.jax.monitoring.unregister_event_duration_listener(self._event)
        return False


def counted_calls(code, calls):
    """(traces, compilations) each ``(fn, pos, kw)`` call adds, starting from empty caches.

    Arguments are built beforehand, so the only compilations are those of the calls."""
    runtime.jax.clear_caches()
    with Counts(code) as c:
        return [c.call(fn, pos, kw)[1:] for fn, pos, kw in calls]


def judged(counts, *, untraced, unstable, again, reused, partial):
    """The verdict of three counted calls: a first call, the same call again (the control), and
    the trial.  The first must trace and the control reuse it, or the run proves nothing; then
    the trial confirms when it traced and compiled again, refutes when it did neither.  Each
    outcome comes with its text: ``("note", text)`` for a run that proves nothing, to try the
    next arguments (``untraced``, ``partial``), else ``(status, detail)``."""
    (t0, _k0), (t1, k1), (t2, k2) = counts
    if t0 == 0:
        return "note", untraced
    if t1 or k1:
        return "unverified", unstable
    if t2 >= 1 and k2 >= 1:
        return "confirmed", again
    if t2 == 0 and k2 == 0:
        return "refuted", reused
    return "note", partial
