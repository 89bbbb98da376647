"""The worker process of ``jaxlint --dynamic``: ``python -m jaxlint.dynamic.worker PLAN OUT``.

It imports one user module (under its own name, never as ``__main__``), then carries out the
checks of the plan and appends one JSON line per event to OUT, so that whatever it finished
before a hang or a crash is kept.  This is the only part of jaxlint that imports JAX or user
code; of jaxlint it imports only its own helpers in this package, which use the standard library.

Its parts: ``entry`` (the process: import the module, run the checks, write the events),
``runtime`` (JAX and the user's module, once imported), ``values`` (the example arguments),
``targets`` (the function objects a check runs), ``running`` (one call, traced or not),
``spans`` (which lines of the file run), ``counting`` and ``interceptors`` (traces,
compilations and the calls of jitted functions), ``errors`` and ``notes`` (how an outcome is
told), and ``checks`` (one module per kind of check).

The names below are the helpers the checks kept beside this package (jaxlint.dynamic.conventions,
constructions, main_block) reach through it, given it as ``w``.
"""

from jaxlint.dynamic import drivers
from jaxlint.dynamic.worker.checks.runs import changed_values
from jaxlint.dynamic.worker.counting import Counts, counted_calls
from jaxlint.dynamic.worker.errors import Unverified, expected_error, matches, short
from jaxlint.dynamic.worker.interceptors import Interceptor, StaleRecorder
from jaxlint.dynamic.worker.notes import pick_note, times
from jaxlint.dynamic.worker.running import runs_as_written, trace_once
from jaxlint.dynamic.worker.spans import ChangeWatch, LineTracker, running_lines
from jaxlint.dynamic.worker.targets import lookup
from jaxlint.dynamic.worker.values import build_value

__all__ = [
    "ChangeWatch",
    "Counts",
    "Interceptor",
    "LineTracker",
    "StaleRecorder",
    "Unverified",
    "build_value",
    "changed_values",
    "counted_calls",
    "drivers",
    "expected_error",
    "lookup",
    "matches",
    "pick_note",
    "running_lines",
    "runs_as_written",
    "short",
    "times",
    "trace_once",
]
