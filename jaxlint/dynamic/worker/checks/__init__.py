"""The checks by kind: ``run_check`` hands a planned check to the module of its kind and returns
(status, detail), status one of confirmed, refuted, unverified."""

from __future__ import annotations

from jaxlint.dynamic.worker.checks import constructions, conventions
from jaxlint.dynamic.worker.checks.captures import check_capture
from jaxlint.dynamic.worker.checks.jax_api import check_jax_api
from jaxlint.dynamic.worker.checks.recompilation import check_fresh_jit, check_retrace
from jaxlint.dynamic.worker.checks.results import check_formatted, check_unchanged
from jaxlint.dynamic.worker.checks.runs import check_host_calls, check_jit_calls, check_stale
from jaxlint.dynamic.worker.checks.static_args import check_pytree_arg, check_static
from jaxlint.dynamic.worker.checks.tracing import check_effect, check_trace


def run_check(mod, path, check):
    kind = check.get("kind")
    if kind == "jax_api":
        return check_jax_api(check)
    if kind == "trace":
        if check.get("module_level"):
            return "unverified", f"line {check['line']} is not inside a function and did not raise while importing"
        return check_trace(mod, path, check)
    if kind == "capture":
        return check_capture(mod, path, check)
    if kind == "effect":
        return check_effect(mod, path, check)
    if kind == "static":
        return check_static(mod, path, check)
    if kind == "retrace":
        return check_retrace(mod, path, check)
    if kind == "fresh_jit":
        return check_fresh_jit(mod, path, check)
    if kind == "unchanged":
        return check_unchanged(mod, path, check)
    if kind == "formatted-tracer":
        return check_formatted(mod, path, check)
    if kind == "pytree_arg":
        return check_pytree_arg(mod, path, check)
    if kind == "stale":
        return check_stale(mod, path, check)
    if kind == "host_calls":
        return check_host_calls(mod, path, check)
    if kind == "jit_calls":
        return check_jit_calls(mod, path, check)
    if kind == "convention":
        return conventions.check(mod, path, check)
    if kind == "construct":
        return constructions.check(mod, path, check)
    return "unverified", check.get("reason") or "no dynamic check"
