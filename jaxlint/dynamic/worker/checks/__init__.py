"""The checks by kind: ``run_check`` hands a planned check to the module of its kind and returns
(status, detail), status one of confirmed, refuted, unverified."""

from __future__ import annotations

from jaxlint.dynamic.worker.checks import constructions, conventions
from jaxlint.dynamic.worker.errors import Unverified
from jaxlint.dynamic.worker.checks.captures import check_capture
from jaxlint.dynamic.worker.checks.jax_api import check_jax_api
from jaxlint.dynamic.worker.checks.recompilation import check_fresh_jit, check_retrace
from jaxlint.dynamic.worker.checks.results import check_formatted, check_unchanged
from jaxlint.dynamic.worker.checks.runs import check_host_calls, check_jit_calls, check_stale
from jaxlint.dynamic.worker.checks.static_args import check_pytree_arg, check_static
from jaxlint.dynamic.worker.checks.tracing import check_effect, check_trace


_BY_KIND = {
    "capture": check_capture,
    "effect": check_effect,
    "static": check_static,
    "retrace": check_retrace,
    "fresh_jit": check_fresh_jit,
    "unchanged": check_unchanged,
    "formatted-tracer": check_formatted,
    "pytree_arg": check_pytree_arg,
    "stale": check_stale,
    "host_calls": check_host_calls,
    "jit_calls": check_jit_calls,
    "convention": conventions.check,
    "construct": constructions.check,
    "trace": check_trace,
}


def run_check(mod, path, check):
    kind = check.get("kind")
    if kind == "jax_api":
        return check_jax_api(check)
    if kind == "trace" and check.get("module_level"):
        return "unverified", f"line {check['line']} is not inside a function and did not raise while importing"
    if kind in _BY_KIND:
        try:
            return _BY_KIND[kind](mod, path, check)
        except Unverified as e:  # what the check runs cannot be reached
            return "unverified", str(e)
    return "unverified", check.get("reason") or "no dynamic check"
