"""The worker's check of a parameter passed by position at one call of a jitted callable and by
keyword at another (JAX403): ``jax.jit`` keys its cache on the positional and the keyword
arguments apart, so the two conventions are two compilations of the same values.

The function around the calls runs as it is, with the calls of the jitted callable recorded.
When the run passes the parameter both ways, one call that passes it the finding's way is made
again with its own values: passing the parameter the other way (twice: the second call is the
control), then the finding's way.  JAX's cache says the rest: the finding's way traces and
compiles again, or it is served from the cache.  When the other way is passed in another
function of the module (the jitted callable is the module's one object, its cache shared by
every function), the run of the finding's function makes the finding's calls only: the other
way is made again from them just the same.
"""

from __future__ import annotations

import inspect

from jaxlint.dynamic.worker.counting import Counts, counted_calls, judged
from jaxlint.dynamic.worker.errors import pick_note, raised, short, times
from jaxlint.dynamic.worker.interceptors import Interceptor
from jaxlint.dynamic.worker.running import run_recorded, runs_as_written
from jaxlint.dynamic.worker.spans import running_lines
from jaxlint.dynamic.worker.targets import watched_target

MAX_CALLS = 32  # calls of the jitted callable kept per run (the first ones, and the finding's line's)


def _recorder(raw, counts, path, first, last):
    """An interceptor (Interceptor) that keeps the calls of the jitted callable: the jitted
    object, the object it is bound to, the arguments, and whether lines ``first``..``last``
    were running."""

    class Calls(Interceptor):
        def __init__(self):
            super().__init__(raw, counts)
            self.calls = []

        def record(self, real, bound, args, kw):
            result = real(*args, **kw)
            on_line = running_lines(path, first, last)
            if len(self.calls) < MAX_CALLS or on_line:
                self.calls.append({"real": real, "bound": bound, "args": tuple(args), "kw": dict(kw), "on_line": on_line})
            return result

    return Calls()


def _parameters(call, raw):
    """The parameter names a recorded call's arguments line up with: the jitted object's own
    signature (through ``functools.partial`` and bound methods it wraps), else the function's."""
    try:
        return list(inspect.signature(call["real"]).parameters)
    except (TypeError, ValueError):
        names = list(inspect.signature(raw).parameters)
        return names[1:] if call["bound"] is not None else names


def _way(call, names, param):
    """"keyword", "position" or None (not passed) for ``param`` at a recorded call."""
    if param in call["kw"]:
        return "keyword"
    if param in names and names.index(param) < len(call["args"]):
        return "position"
    return None


def _other_way(call, names, param):
    """(args, kw) of ``call`` with ``param`` passed the other way and every other argument as
    it was; None when that cannot be written (a positional parameter after it, a parameter
    before it passed by keyword)."""
    args, kw = list(call["args"]), dict(call["kw"])
    i = names.index(param)
    if param in kw:
        if len(args) != i:
            return None
        value = kw.pop(param)
        return args + [value], kw
    if i != len(args) - 1:
        return None
    kw[param] = args.pop()
    return args, kw


def check(mod, path, check):
    raw, cls, label = watched_target(mod, check, path)
    param = check["param"]
    now = "keyword" if check["by_keyword"] else "position"
    other = "position" if check["by_keyword"] else "keyword"
    notes = []
    for driver, runner, self_obj, argset in runs_as_written(mod, path, check, notes):
        running = f"running {driver['label']}"
        with Counts(raw.__code__) as counts:
            rec = _recorder(raw, counts, path, check["line"], check["end_line"])
            err = run_recorded(rec, mod, cls, path, runner, driver, argset, self_obj, on_object=True)
        ways = {}  # the first call passing the parameter each way (the finding's line first)
        for call in sorted(rec.calls, key=lambda c: not c["on_line"]):
            ways.setdefault(_way(call, _parameters(call, raw), param), call)
        elsewhere = check.get("elsewhere")
        if now not in ways or (other not in ways and not elsewhere):
            # the code must pass it both ways in one run: a single convention compiles once;
            # or the other way is in another function (``elsewhere``), made again here
            seen = [x for x in ("position", "keyword") if x in ways]
            what = (
                f"was called with `{param}` passed only by {seen[0]}"
                if seen
                else "was not called through the module's globals, a class attribute or jax.jit applied while it ran"
            )
            notes.append(f"{running}, {label} {what}{raised(err)}")
            continue
        chosen = ways[now]
        names = _parameters(chosen, raw)
        moved = _other_way(chosen, names, param)
        if moved is None:
            notes.append(f"{running}, the call of {label} passing `{param}` by {now} cannot pass it by {other} alone")
            continue
        fn = chosen["real"]
        try:
            counted = counted_calls(
                raw.__code__,
                [(fn, *moved), (fn, *moved), (fn, list(chosen["args"]), chosen["kw"])],
            )
        except Exception as e:  # noqa: BLE001 - the user's code may raise anything
            notes.append(f"calling {label} again with the recorded arguments failed: {short(e)}")
            continue
        t2, k2 = counted[2]
        if other not in ways:
            running += f"; the calls passing `{param}` by {other} are in {elsewhere}"
        status, detail = judged(
            counted,
            untraced=f"calling {label} with `{param}` passed by {other} did not trace it",
            unstable=f"{label} traced again when called twice with `{param}` passed by {other}",
            again=(
                f"{label} traced and compiled again for a call passing `{param}` by {now}, with the values of a call "
                f"passing it by {other} that had compiled; the same call twice compiled once ({running})"
            ),
            reused=f"{label} reused its compiled function when `{param}` was passed by {now} instead of by {other} ({running})",
            partial=f"{label} traced {times(t2)} and compiled {times(k2)} when `{param}` was passed by {now}",
        )
        if status != "note":
            return status, detail
        notes.append(detail)
    return "unverified", pick_note(notes, check)
