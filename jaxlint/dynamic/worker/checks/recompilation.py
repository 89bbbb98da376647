"""Recompilation counted under controlled calls: a static argument that changes on each call
(JAX204), a result fed back in place of an argument (JAX402), and ``jax.jit`` of a freshly made
function (JAX401); each compared with the same call repeated as the control."""

from __future__ import annotations

import ast
import inspect

from jaxlint.dynamic.worker import runtime
from jaxlint.dynamic.worker.counting import Counts, counted_calls, judged
from jaxlint.dynamic.worker.errors import guessed_note, pick_note, short, times
from jaxlint.dynamic.worker.targets import jitted_callable, resolve_target
from jaxlint.dynamic.worker.values import build_value, built_call


def _jitted(mod, path, check):
    """(driver, raw function, the jitted callable to count, its label) for the check's first
    driver: the module's own jitted object, else ``jax.jit`` of the function; Unverified when
    it cannot be reached."""
    driver = check["drivers"][0]
    raw, obj, cls, self_obj = resolve_target(mod, driver, path)
    fn, made = jitted_callable(mod, driver, raw, obj, cls, self_obj)
    return driver, raw, fn, driver["label"] if made else f"the module's jitted {driver['label'].split(' ', 1)[-1]}"


def check_retrace(mod, path, check):
    """JAX204: one call per value of the static parameter, plus a repeated first call as control."""
    if check.get("fed_back"):
        return check_fed_back(mod, path, check)
    driver, raw, fn, label = _jitted(mod, path, check)
    name = check["param"]
    values = [build_value(v, False) for v in check["values"]]
    notes = []
    for argset in driver["argsets"]:
        try:
            order = [values[0]] + values
            calls = [(fn, *built_call(argset, driver, {name: v})) for v in order]
            counts = counted_calls(raw.__code__, calls)
        except Exception as e:  # noqa: BLE001 - the user's code may raise anything
            notes.append(f"calling {label} failed: {short(e)}")
            continue
        (t0, _), (t1, k1), rest = counts[0], counts[1], counts[2:]
        if t0 == 0:
            notes.append(f"calling {label} did not trace it")
            continue
        if t1 or k1:
            return "unverified", f"{label} traced again when called twice with the same arguments"
        traces = sum(t for t, _ in rest)
        compiles = sum(k for _, k in rest)
        if all(t >= 1 and k >= 1 for t, k in rest):
            return "confirmed", (
                f"{label} traced and compiled again for each new `{name}` ({check['values_from']}): "
                f"{times(1 + traces)} for {len(values)} values; the same value twice compiled once"
            )
        if traces == 0 and compiles == 0:
            if check.get("changes") == "shape" and not check.get("values_known", True):
                # Distinct ints in place of the loop's unknown values (``range(0, n, bs)``) say
                # nothing about the shapes the loop really makes, such as a shorter last batch.
                return "unverified", f"{label} traced once for `{name}` over {check['values_from']} in place of the loop's own values, which are not known"
            if check.get("changes") == "shape":
                return "refuted", f"{label} traced once for `{name}` over {check['values_from']}: its shape does not change"
            return "refuted", f"{label} traced once for {check['values_from']} of `{name}`: `{name}` is not static"
        notes.append(f"{label} traced {times(t0 + traces)} and compiled {times(compiles + counts[0][1])} for {len(values)} values of `{name}`")
    g = guessed_note(driver)
    if g and notes:
        return "unverified", f"{g} ({notes[0]})"
    return "unverified", pick_note(notes, check)


def _replaced(pos, kw, marker, value):
    return [value if a is marker else a for a in pos], {k: value if a is marker else a for k, a in kw.items()}


def check_fed_back(mod, path, check):
    """JAX402: call the jitted function with the value the argument starts as (twice, as
    control), then with the first call's result in its place."""
    driver, raw, fn, label = _jitted(mod, path, check)
    name = check["param"]
    part = check.get("result_part")
    start_src = check["values"][0].get("src", "its first value")
    this_call = f"call at line {check.get('call_line')}"
    notes = [f"the arguments of the {this_call} were not given"]
    # only the call's own arguments: a guessed array's dtype could decide the result's type
    for argset in [a for a in driver["argsets"] if a["source"] == this_call]:
        notes = []
        marker = object()
        try:
            start = build_value(check["values"][0], False)
            pos, kw = built_call(argset, driver, {name: start})
            again = built_call(argset, driver, {name: build_value(check["values"][0], False)})
            pos2, kw2 = built_call(argset, driver, {name: marker})  # built before counting
            runtime.jax.clear_caches()
            with Counts(raw.__code__) as c:
                result = fn(*pos, **kw)
                runtime.jax.block_until_ready(result)
                t0, k0 = c.traces, c.compiles
                runtime.jax.block_until_ready(fn(*again[0], **again[1]))
                t1, k1 = c.traces - t0, c.compiles - k0
                fed = result if part is None else result[part]
                pos2, kw2 = _replaced(pos2, kw2, marker, fed)
                before = c.traces, c.compiles
                runtime.jax.block_until_ready(fn(*pos2, **kw2))
                t2, k2 = c.traces - before[0], c.compiles - before[1]
        except Exception as e:  # noqa: BLE001 - the user's code may raise anything
            notes.append(f"calling {label} failed: {short(e)}")
            continue
        status, detail = judged(
            ((t0, k0), (t1, k1), (t2, k2)),
            untraced=f"calling {label} did not trace it",
            unstable=f"{label} traced again when called twice with the same arguments",
            again=(
                f"{label} traced and compiled again when its result took the place of `{name}` = {start_src}; "
                "the same arguments twice compiled once"
            ),
            reused=f"{label} traced once when its result took the place of `{name}` = {start_src}",
            partial=f"{label} traced {times(t2)} and compiled {times(k2)} more when its result took the place of `{name}`",
        )
        if status != "note":
            return status, detail
        notes.append(detail)
    return "unverified", pick_note(notes, check)


def check_fresh_jit(mod, path, check):
    """JAX401: evaluate the function expression twice, jit each, call with the same arguments."""
    jit_kw = {k: ast.literal_eval(v) for k, v in check["jit_kw"].items()}
    what = check["what"]
    if check.get("global"):
        name = check["global"]
        if not inspect.isfunction(getattr(mod, name, None)):
            return "unverified", f"{name} is not a plain function after import"

        def make():
            return getattr(mod, name)

        shown = f"jax.jit({name})"
    else:
        mode = check["mode"]
        tree = ast.parse(check["src"], mode=mode)
        ast.increment_lineno(tree, check["src_line"] - 1)
        # the user's own source text, compiled once in the module's globals (line numbers kept)
        code = compile(tree, path, mode)

        def make():
            if mode == "eval":
                return eval(code, mod.__dict__)  # noqa: S307 - evaluates to a function; runs nothing else
            ns = {}
            exec(code, mod.__dict__, ns)  # noqa: S102 - an undecorated def with literal defaults
            return ns[check["name"]]

        shown = "jax.jit(lambda)" if what == "lambda" else f"jax.jit({what[:-2]})"
    driver = {"filtered": False}
    notes = []
    for argset in check["argsets"]:
        try:
            first, second = make(), make()
            j1, j2 = runtime.jax.jit(first, **jit_kw), runtime.jax.jit(second, **jit_kw)
            pos, kw = built_call(argset, driver)
            counts = counted_calls(first.__code__, [(j1, pos, kw), (j1, pos, kw), (j2, pos, kw)])
        except Exception as e:  # noqa: BLE001
            notes.append(f"calling {shown} failed: {short(e)}")
            continue
        t2, k2 = counts[2]
        status, detail = judged(
            counts,
            untraced=f"calling {shown} did not trace the {what}",
            unstable=f"one {shown} called twice traced twice",
            again=(
                f"each evaluation of {shown} traces and compiles again: the second traced {times(t2)} "
                f"and compiled {times(k2)} with the same arguments; one jitted object called twice compiled once"
            ),
            reused=f"evaluating {shown} twice reuses the first trace and compilation",
            partial=f"the second {shown} traced {times(t2)} and compiled {times(k2)}",
        )
        if status != "note":
            return status, detail
        notes.append(detail)
    g = check.get("guessed") or []
    if g and notes:
        return "unverified", f"could not build arguments for {', '.join(g)} ({notes[0]})"
    return "unverified", pick_note(notes, check)
