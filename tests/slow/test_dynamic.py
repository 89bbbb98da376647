"""``jaxlint --dynamic`` against real JAX on CPU."""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import glob
import json
import os
import shutil
import subprocess
import sys
import time
import types

import libcst as cst
import pytest

from requirements import require  # noqa: E402

require("jax")

# Starts JAX worker processes: minutes, not seconds.
pytestmark = pytest.mark.slow

from jaxlint import cli, dynamic  # noqa: E402
from fixture_units import rule_config  # noqa: E402
from jaxlint.engine.pipeline import lint_source, read_and_lint  # noqa: E402
from jaxlint.formats import format_text  # noqa: E402
from jaxlint.rules.frozen.frozen_capture import FrozenCapture  # noqa: E402
from jaxlint.rules.frozen.mutated_static_object import MutatedStaticObject  # noqa: E402
from jaxlint.rules.recompile.calling_convention_change import CallingConventionChange  # noqa: E402
from jaxlint.rules.recompile.jit_of_fresh_function import JitOfFreshFunction  # noqa: E402
from jaxlint.rules.recompile.weak_type_flip import WeakTypeFlip  # noqa: E402
from jaxlint.rules.silent.discarded_update import DiscardedUpdate  # noqa: E402
from jaxlint.rules.static_args.nnx_data_in_static_attr import NnxDataInStaticAttr  # noqa: E402
from jaxlint.rules.static_args.traced_self_not_pytree import TracedSelfNotPytree  # noqa: E402
from jaxlint.rules.silent.formatted_debug_print import FormattedDebugPrint  # noqa: E402
from jaxlint.rules.static_args.changing_shape_arg import ChangingShapeArg  # noqa: E402
from jaxlint.rules.static_args.array_in_static_metadata import ArrayInStaticMetadata  # noqa: E402
from jaxlint.rules.static_args.changing_static_arg import ChangingStaticArg  # noqa: E402
from jaxlint.rules.traced_values.traced_if import TracedIf  # noqa: E402
from jaxlint.dynamic import confirming  # noqa: E402
from jaxlint.dynamic.processes import ForkServer, fork_server_available  # noqa: E402

from clirun import ROOT  # noqa: E402
FIXTURES = sorted(glob.glob(os.path.join(ROOT, "fixtures", "*.py")))
DYN = os.path.join(ROOT, "fixtures", "dynamic")


def lint(paths):
    out = []
    for p in paths:
        out.extend(read_and_lint(p, p, rule_config()).findings)
    return out


# One fork server for the module's calls of ``confirm`` (each call would otherwise start its
# own, importing JAX: seconds); the tests of how a run starts its processes start their own.
SERVER = []


@contextlib.contextmanager
def without_test_name():
    """pytest names the running test in the environment (``PYTEST_CURRENT_TEST``); a server
    serves calls made in the environment it was started with, so the server is started, and
    the module's calls are made, without that name."""
    saved = os.environ.pop("PYTEST_CURRENT_TEST", None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ["PYTEST_CURRENT_TEST"] = saved


@pytest.fixture(scope="module", autouse=True)
def shared_server():
    if not fork_server_available():
        yield None
        return
    with without_test_name():
        server = ForkServer()
    with server:
        SERVER.append(server)
        yield server
        SERVER.remove(server)


def confirm(findings, real_paths, **kw):
    with without_test_name():
        return dynamic.confirm(findings, real_paths, fork=SERVER[0] if SERVER else None, **kw)


def run_dynamic(paths, timeout=60.0):
    findings = lint(paths)
    return confirm(findings, {p: p for p in paths}, timeout=timeout)


def statuses(findings):
    return {(os.path.basename(f.path), f.line, f.code): (f.dynamic["status"], f.dynamic["detail"]) for f in findings}


# Rules the dynamic mode cannot check yet (a closure whose error comes when it is used after
# the trace); their fixtures are checked against JAX by the oracle (tests/slow/test_oracle.py).
NO_DYNAMIC_CHECK = {"JAX309"}
# Findings of forms the dynamic checks do not rebuild yet: unverified, never refuted; the
# oracle checks them against JAX.
NOT_REBUILT = {
    # a NumPy generator's draw passed to the constructor: no example the worker may evaluate
    ("static_metadata_draws.py", 25, "JAX206"),
    # a helper's effect reached from several jitted entry points; the one the facts name
    # (run_decorated) returns its result, not the jitted function the check would call twice
    ("fresh_callables.py", 13, "JAX303"),
    # a lax body a factory builds from the function it is given (``scanned(step_fn)``): the
    # body's callable parameter is not an array the check can build
    ("staged_bodies.py", 40, "JAX108"),
    ("staged_bodies.py", 60, "JAX101"),
    ("staged_bodies.py", 133, "JAX304"),
    ("staged_bodies.py", 159, "JAX102"),
    # the same, with what the closure's ``*args`` hold taken from the closure's calls
    ("factory_extra_arguments.py", 104, "JAX104"),
    ("factory_extra_arguments.py", 121, "JAX104"),
    ("factory_extra_arguments.py", 130, "JAX102"),
    ("factory_extra_arguments.py", 162, "JAX106"),
    ("factory_results.py", 49, "JAX303"),
    # a partial or a bound method the factory is given: the function is called by the
    # factory's body, with a carry the check does not build
    ("staged_bodies.py", 91, "JAX303"),
    ("staged_bodies.py", 115, "JAX303"),
    # a closure whose factory is given the function the finding is in by a partial of the
    # factory (make_clipped_update = partial(make_update, clipped_loss)), a staticmethod or a
    # method of an object: the check calls only module-level factories, by their own calls
    ("factory_callable_contexts.py", 71, "JAX102"),
    ("factory_callable_contexts.py", 93, "JAX101"),
    ("factory_callable_contexts.py", 114, "JAX101"),
    # a method whose config parameter the analysis takes from its callers (an object with a
    # ``margin``); the check stands a tracer in for it, which has no such attribute
    ("init_objects.py", 19, "JAX101"),
    # a capture of a module-level instance of a plain class (``LAYOUT.width``): the check
    # cannot build another value of that class to swap in; the oracle's FROZEN check changes
    # the attribute through the eager initialiser and sees the old result
    ("eval_shape_and_eager.py", 46, "JAX301"),
    # a jitted step an object captured at import (``STEPPER = Stepper(total, "total")``): the
    # check counts the calls of the module's ``total``, which ``STEPPER.step`` does not go
    # through; the oracle's FROZEN check counts the traces
    ("stage_pipelines.py", 67, "JAX205"),
    # an entry of ``**options`` (a static name passed through it beside traced ones): the check
    # builds the jitted function's own parameters, not what a ``**kwargs`` holds
    ("pytree_structure.py", 53, "JAX101"),
    # writes to Haiku's frame from a plain trace inside ``hk.transform``: the checks do not build
    # the frame around the traced function; the oracle sees each write made once, at the trace
    ("library_frames.py", 23, "JAX303"),
    ("library_frames.py", 33, "JAX303"),
    ("library_frames.py", 46, "JAX303"),
    ("library_frames.py", 55, "JAX303"),
}
# Findings whose traced callable the dynamic mode cannot call with built arguments yet:
# `jax.jit(model.apply)` of a linen module (its variables come ahead of `__call__`'s
# parameters) and an `eqx.filter_vmap(in_axes=...)` function: unverified, never refuted.
# Nor the arguments of an Equinox module's method that builds a partial for an eqx.filter_jit
# step on every call (Trainer.step, run by the loop of fit_with_trainer).
NOT_CALLED = {
    ("linen_apply.py", 76, "JAX303"),
    ("linen_apply.py", 86, "JAX101"),
    ("nnx_state.py", 218, "JAX308"),
    ("nnx_state.py", 222, "JAX308"),
    ("filtered_arguments.py", 133, "JAX101"),
    ("equal_static_callables.py", 68, "JAX401"),
}
# Of the findings above, those the fixture's driver shows when the file runs as a script.
SHOWN_WHEN_RUN = {
    ("attributes_named_like_loop_variables.py", 14, "JAX303"),
    ("fresh_programs.py", 17, "JAX303"),
    ("fresh_programs.py", 125, "JAX401"),
    ("fresh_programs.py", 141, "JAX401"),
    ("fresh_programs.py", 171, "JAX401"),
    ("fresh_programs.py", 205, "JAX401"),
    ("jitting_helpers.py", 42, "JAX401"),
    ("jitting_helpers.py", 49, "JAX401"),
    ("escaped_closures.py", 56, "JAX309"),
    ("escaped_closures.py", 70, "JAX309"),
    ("factory_callable_contexts.py", 71, "JAX102"),
    ("factory_callable_contexts.py", 93, "JAX101"),
    ("factory_callable_contexts.py", 114, "JAX101"),
    ("factory_extra_arguments.py", 104, "JAX104"),
    ("factory_extra_arguments.py", 121, "JAX104"),
    ("factory_extra_arguments.py", 130, "JAX102"),
    ("factory_extra_arguments.py", 162, "JAX106"),
    ("factory_results.py", 49, "JAX303"),
    ("filtered_arguments.py", 133, "JAX101"),
    ("fresh_callables.py", 13, "JAX303"),
    ("init_objects.py", 19, "JAX101"),
    ("linen_apply.py", 76, "JAX303"),
    ("linen_apply.py", 86, "JAX101"),
    ("linen_initialisers.py", 21, "JAX104"),
    ("linen_initialisers.py", 33, "JAX101"),
    ("linen_variable_reads.py", 16, "JAX104"),
    ("linen_variable_reads.py", 30, "JAX108"),
    ("nnx_state.py", 218, "JAX308"),
    ("nnx_state.py", 222, "JAX308"),
    ("static_values_through_calls.py", 33, "JAX204"),
    ("static_values_through_calls.py", 49, "JAX204"),
    ("static_values_through_calls.py", 119, "JAX204"),
    ("staged_bodies.py", 40, "JAX108"),
    ("staged_bodies.py", 60, "JAX101"),
    ("staged_bodies.py", 91, "JAX303"),
    ("staged_bodies.py", 115, "JAX303"),
    ("staged_bodies.py", 133, "JAX304"),
    ("staged_bodies.py", 159, "JAX102"),
    ("pytree_structure.py", 53, "JAX101"),
    ("jitted_after_bound_methods.py", 44, "JAX402"),
    # a Linen module class lifted by nn.remat, called from another module's __call__, and a
    # factory's closure jitted at module level: the checks build neither call
    ("linen_lifted_transforms.py", 17, "JAX101"),
    ("factory_defaults.py", 30, "JAX402"),
    ("traced_star_args.py", 11, "JAX104"),
}
# Findings whose compilations happen at another line than the flagged one, which the checks
# watch: a new callable stored in a static field (JAX404) compiles where the rebuilt instance
# reaches the jitted call; the second of two equal callables (JAX401) compiles once at its own
# line, which is the point; a nested def passed through a helper's parameter (JAX401) compiles
# at the helper's jitted call; a static key made anew by a function its caller runs twice
# (JAX401) compiles on the second run, which a check calling the function once never makes; so
# does an object an ``__init__`` keeps on ``self`` for a static parameter (JAX401), new with
# the next instance.  Unverified, never refuted; the oracle counts their compilations.
COMPILED_ELSEWHERE = {
    ("fresh_callables_reached.py", 50, "JAX401"),
    ("stale_through_calls.py", 165, "JAX401"),
    ("fresh_static_callables.py", 32, "JAX404"),
    ("fresh_static_callables.py", 132, "JAX404"),
    ("fresh_static_callables.py", 187, "JAX404"),
    ("equal_static_callables.py", 112, "JAX401"),
    ("equal_static_callables.py", 124, "JAX401"),
    ("per_instance_objects.py", 49, "JAX401"),
}


def test_every_fixture_finding_is_confirmed():
    assert len(FIXTURES) >= 5
    forked = SERVER[0].files_sent if SERVER else None
    findings = run_dynamic(FIXTURES)
    if forked is not None:
        # the module's server forked the files' processes (the call started no server of its own)
        assert SERVER[0].files_sent - forked > 50
    assert len(findings) >= 50
    got = statuses(findings)
    # What the checks cannot reach, the fixture's own driver shows when the file runs as a
    # script (under the runtime mode): confirmed that way, the others stay unverified.
    shown = {k for k, v in got.items() if v == ("confirmed", "observed when the file ran as a script") or v[1] == "observed when the file ran as a script (as JAX303)"}
    assert shown == SHOWN_WHEN_RUN
    unchecked = {k: v for k, v in got.items() if k[2] in NO_DYNAMIC_CHECK and k not in shown}
    assert unchecked and {v[0] for v in unchecked.values()} == {"unverified"}
    not_confirmed = {k: v for k, v in got.items() if v[0] != "confirmed" and k[2] not in NO_DYNAMIC_CHECK}
    assert {k: v[0] for k, v in not_confirmed.items() if k in NOT_CALLED} == dict.fromkeys(NOT_CALLED - shown, "unverified")
    not_confirmed = {k: v for k, v in not_confirmed.items() if k not in NOT_CALLED}
    assert set(not_confirmed) == (NOT_REBUILT | COMPILED_ELSEWHERE) - shown
    assert {v[0] for v in not_confirmed.values()} == {"unverified"}
    # every code of the fixtures has a dynamic check, including the recompilation,
    # static-metadata, stale-object and silent-wrong-result ones
    assert {"JAX204", "JAX205", "JAX206", "JAX207", "JAX208", "JAX209", "JAX307", "JAX401", "JAX402", "JAX403"} | {
        "JAX501",
        "JAX502",
        "JAX601",
        "JAX602",
    } <= {
        k[2] for k in got if got[k][0] == "confirmed"
    }
    details = {k: v[1] for k, v in got.items()}
    assert details[("changing_shapes.py", 24, "JAX205")] == (
        "the module's jitted total() traced and compiled again for each new `x` (the loop's values 1, 2, 3 of `i`): "
        "3 times for 3 values; the same value twice compiled once"
    )
    assert details[("weak_types.py", 94, "JAX402")] == (
        "the module's jitted decay() traced and compiled again when its result took the place of `x` = 1; "
        "the same arguments twice compiled once"
    )
    assert details[("weak_types.py", 101, "JAX402")] == (
        "the module's jitted to_float32() traced and compiled again when its result took the place of `x` = 0.0; "
        "the same arguments twice compiled once"
    )
    # `batch` is a row of what the module passes sum_batches(): the loop runs as it is
    assert details[("weak_types.py", 74, "JAX402")] == (
        "jitted accumulate() traced twice and compiled twice for the 3 calls line 74 made (running sum_batches()); "
        "the last call repeated compiled nothing"
    )
    # through a forwarding wrapper: the calls of the jitted function the wrapper's call makes
    assert details[("forwarding_wrappers.py", 57, "JAX205")] == (
        "jitted total() traced 3 times and compiled 3 times for the 3 calls line 57 made (running prefixes_two_deep()); "
        "the last call repeated compiled nothing"
    )
    assert details[("changing_statics.py", 50, "JAX204")] == (
        "jitted sgd() traced 3 times and compiled 3 times for the 3 calls line 50 made (running through_wrapper()); "
        "the last call repeated compiled nothing"
    )
    # a lambda jitted in `__init__`, found by its code
    assert details[("recompile_through_callables.py", 79, "JAX205")] == (
        "jitted Predictor.__init__.<lambda>() traced 3 times and compiled 3 times for the 3 calls line 79 made "
        "(running predict_prefixes()); the last call repeated compiled nothing"
    )
    assert details[("calling_conventions.py", 48, "JAX403")] == (
        "jitted apply_dropout() traced and compiled again for a call passing `rate` by keyword, with the values of a "
        "call passing it by position that had compiled; the same call twice compiled once (running noisy_views())"
    )
    # the other convention in another function of the module: one jitted object, one cache
    assert details[("conventions_across_functions.py", 28, "JAX403")] == (
        "jitted _sgd() traced and compiled again for a call passing `lr` by keyword, with the values of a call passing "
        "it by position that had compiled; the same call twice compiled once (running finetune(); the calls passing "
        "`lr` by position are in train())"
    )
    # `@jax.jit` on a def nested in a function that a loop runs: the loop runs
    assert details[("fresh_callables.py", 204, "JAX401")] == (
        "each of the 3 objects `jax.jit` made on line 200 traced its function again on its first call, with arguments "
        "of the same shapes and dtypes, into the same program (compiled 3 times, running decorated_called_in_loop())"
    )
    # built as the module builds it: Flax refuses the data when the constructor returns
    assert details[("nnx_static_attributes.py", 81, "JAX208")] == (
        "ValueError: Found unexpected data on value of type <class 'list'> in static attribute 'layers' of Pytree type "
        "'<class 'nnx_static_attributes.Tower'>'. building Tower (the call at line 193 in a lambda)"
    )
    assert details[("traced_self.py", 62, "JAX209")] == "TypeError tracing scale_called()"
    assert details[("discarded_updates.py", 20, "JAX501")] == (
        "`x` is the same ArrayImpl after line 20 ran (calling bump_discarded()): the new array was discarded"
    )
    assert details[("debug_prints.py", 17, "JAX502")] == (
        "the string printed by line 17 is 'x = JitTracer(float32[3])' (tracing jitted fstring_print())"
    )


def test_example_arguments_from_spec_call_site_annotation_default_and_named_tuple():
    path = os.path.join(DYN, "arguments.py")
    got = statuses(run_dynamic([path]))
    assert got == {
        ("arguments.py", 17, "JAX101"): ("confirmed", "TracerBoolConversionError tracing jitted from_spec()"),
        ("arguments.py", 25, "JAX102"): ("confirmed", "TracerBoolConversionError tracing jitted from_call_site()"),
        ("arguments.py", 33, "JAX104"): (
            "confirmed",
            'ConcretizationTypeError tracing jitted from_annotation() (arguments from `img: Float[Array, "2 8"]` as float32[2,8])',
        ),
        ("arguments.py", 41, "JAX104"): ("confirmed", "ConcretizationTypeError tracing jitted static_with_default()"),
        ("arguments.py", 52, "JAX104"): ("confirmed", "ConcretizationTypeError tracing jitted from_named_tuple()"),
    }


def test_arguments_from_jaxtyping_shapes_and_shape_dtype_struct_defaults():
    """A named dimension is one size across the parameters and two names are two sizes; a
    dimension expression is computed; a ShapeDtypeStruct default (a module constant) gives an
    array of its shape.  The detail names the annotations the arguments came from."""
    path = os.path.join(DYN, "annotated_shapes.py")
    got = statuses(run_dynamic([path]))
    assert got == {
        ("annotated_shapes.py", 22, "JAX101"): (
            "confirmed",
            "TracerBoolConversionError tracing jitted attention_scores() (arguments from "
            '`queries: Float[Array, "seq d_model"]` as float32[3,4]; `keys: Float[Array, "seq d_model"]` as float32[3,4]; '
            '`proj: Float[Array, "d_model d_head"]` as float32[4,5])',
        ),
        ("annotated_shapes.py", 32, "JAX104"): (
            "confirmed",
            "ConcretizationTypeError tracing jitted cross_entropy() (arguments from "
            '`logits: Float[Array, "batch classes"]` as float32[3,4]; `labels: Int[Array, "batch"]` as int32[3])',
        ),
        # `n+1` is one longer than `n`: the concatenation and the sum trace
        ("annotated_shapes.py", 39, "JAX102"): (
            "confirmed",
            "TracerBoolConversionError tracing jitted append_bos() (arguments from "
            '`tokens: Float[Array, "n"]` as float32[3]; `padded: Float[Array, "n+1"]` as float32[4])',
        ),
        # the call passes a decoded request (not a value the source shows): the default's shape
        ("annotated_shapes.py", 50, "JAX101"): (
            "confirmed",
            "TracerBoolConversionError tracing jitted serve() (arguments from the ShapeDtypeStruct default of `request` "
            "as float32[4,16])",
        ),
    }


def test_stale_objects_reached_through_wrappers_methods_call_and_stored_jits_are_confirmed():
    """The first call reaches the jitted function through a wrapper (and a wrapper of it), a
    method passing an attribute `__init__` set, `__call__`, or a jitted function stored on the
    instance: the function around runs as it is and the call after the change returns the old
    result."""
    path = os.path.join(ROOT, "fixtures", "stale_through_calls.py")
    got = statuses(run_dynamic([path]))
    stale = (
        "after line {} changed `{}` ({}), jitted {}() reused the function compiled before and returned another result "
        "than the function run eagerly (running {}())"
    )
    assert got == {
        ("stale_through_calls.py", 43, "JAX307"): (
            "confirmed",
            stale.format(43, "config.temperature", "1.0 -> 0.5", "_scaled_logits", "anneal_temperature"),
        ),
        ("stale_through_calls.py", 53, "JAX307"): (
            "confirmed",
            stale.format(53, "config.temperature", "1.0 -> 0.5", "_scaled_logits", "decode_with_cooling"),
        ),
        ("stale_through_calls.py", 81, "JAX307"): ("confirmed", stale.format(81, "hparams.scale", "1.0 -> 2.0", "_reward", "retune_reward")),
        ("stale_through_calls.py", 110, "JAX307"): (
            "confirmed",
            stale.format(110, "stats.mean", "0.0 -> 0.5", "_normalize", "refresh_statistics"),
        ),
        ("stale_through_calls.py", 134, "JAX307"): (
            "confirmed",
            stale.format(134, "schedule.lr", "0.1 -> 0.01", "sgd_update", "decay_learning_rate"),
        ),
        # A new static key on each call: the dynamic mode runs copy_per_call() once, so it sees
        # one compilation; the fixture's own driver calls it twice and shows the second.
        ("stale_through_calls.py", 165, "JAX401"): (
            "unverified",
            "running copy_per_call(), line 165 called jitted _scaled_logits() once",
        ),
    }


class OverEagerIf(TracedIf):
    """Test-only: flags every `if` in a traced function, traced or not."""

    def on_test(self, ctx, kind, test, v, stmt):
        if kind == "if":
            ctx.report(self, test, kind="`if`", var="?")


def test_wrong_static_finding_is_refuted():
    path = os.path.join(DYN, "static_tests.py")
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    assert lint_source(text, path, rule_config()).findings == []  # the real rules are silent here
    wrong = lint_source(text, path, rules=[OverEagerIf]).findings
    assert [(f.line, f.code) for f in wrong] == [(12, "JAX101"), (19, "JAX101")]
    out = confirm(wrong, {path: path}, timeout=60)
    assert [(f.line, f.dynamic) for f in out] == [
        (12, {"status": "refuted", "detail": "traced without error"}),
        (19, {"status": "refuted", "detail": "traced without error"}),
    ]
    text_out = format_text(out)
    assert text_out.splitlines()[0].endswith(" [refuted: traced without error]")
    assert dynamic.summary(out) == "0 confirmed, 2 refuted, 0 unverified"
    assert dynamic.drop_refuted(out) == []


RECOMPILE = os.path.join(DYN, "recompile_checks.py")


def test_recompilation_checks_confirm_and_explain_what_they_cannot_rebuild():
    got = statuses(run_dynamic([RECOMPILE]))
    assert got == {
        ("recompile_checks.py", 16, "JAX204"): (
            "confirmed",
            "the module's jitted power() traced and compiled again for each new `k` (the loop's values 1, 2, 3): "
            "3 times for 3 values; the same value twice compiled once (arguments from the call at line 16 in powers(), "
            "run up to it)",
        ),
        # `params` is what main() passes to apply_all(), which hands it on
        ("recompile_checks.py", 30, "JAX204"): (
            "confirmed",
            "the module's jitted apply() traced and compiled again for each new `k` (the loop's values 0, 1, 2): "
            "3 times for 3 values; the same value twice compiled once",
        ),
        ("recompile_checks.py", 62, "JAX401"): (
            "confirmed",
            "each evaluation of jax.jit(double) traces and compiles again: the second traced once and compiled once "
            "with the same arguments; one jitted object called twice compiled once",
        ),
        # the lambda reads `scale`, a local variable of scaled_all(): it cannot be rebuilt on
        # its own, and scaled_all() runs as main() calls it
        ("recompile_checks.py", 69, "JAX401"): (
            "confirmed",
            "each of the 2 objects `jax.jit` made on line 69 traced its function again on its first call, with arguments "
            "of the same shapes and dtypes, into the same program (compiled twice, running scaled_all())",
        ),
        # the checks cannot build a dict for `d` (the lambda indexes it by key); the module's
        # own main() passes one, and running the file shows the lambda compiled again
        ("recompile_checks.py", 74, "JAX401"): ("confirmed", "observed when the file ran as a script"),
    }


def every_argument_named(name: str, what: str):
    """A test-only JAX204 that flags every argument `name` passed to a jitted function, static
    or not, in a loop or not: the dynamic check must refute what is not a recompilation."""

    class EveryArgumentNamed(ChangingStaticArg):
        def check_module(self, m):
            for app in m.finder.applications:
                for call in m.analyzer.call_sites(app):
                    for a in call.args:
                        if isinstance(a.value, cst.Name) and a.value.value == name:
                            m.report(self, a.value, static=f"Static parameter `{name}`", func=app.func.name, what=what)

    return EveryArgumentNamed


EveryLoopArgument = every_argument_named("k", "the loop variable `k`")


class EveryJitOfAName(JitOfFreshFunction):
    """Test-only: flags `jax.jit(name)` even when `name` is a module-level function."""

    def check_module(self, m):
        for call, scope, _ in m.index.calls:
            if scope.kind != "function" or not call.args or not isinstance(call.args[0].value, cst.Name):
                continue
            if m.finder.transform_of(call.func, scope):
                    m.report(self, call, subject="`jax.jit` of a function", detail="")


def test_a_runs_files_share_compilations_in_its_own_folder_and_every_compilation_is_counted(tmp_path, monkeypatch):
    """Without a compilation cache of the user's, a run's files share one in the run's folder;
    the recompilation checks count the same compilations as without it (the suite itself runs
    with one shared cache: tests/conftest.py)."""
    with_suite_cache = statuses(run_dynamic([RECOMPILE]))
    monkeypatch.delenv("JAX_COMPILATION_CACHE_DIR", raising=False)
    run_folder = tmp_path / "run"
    run_folder.mkdir()
    # Keep the run's folder to look at afterwards.
    monkeypatch.setattr(confirming, "tempfile", types.SimpleNamespace(mkdtemp=lambda prefix: str(run_folder)))
    monkeypatch.setattr(confirming, "shutil", types.SimpleNamespace(rmtree=lambda *a, **k: None))
    assert statuses(run_dynamic([RECOMPILE])) == with_suite_cache
    assert os.listdir(run_folder / "xla")


def test_recompilation_checks_refute_a_traced_argument_and_a_module_level_function():
    with open(RECOMPILE, encoding="utf-8") as fh:
        text = fh.read()
    wrong = lint_source(text, RECOMPILE, rules=[EveryLoopArgument, EveryJitOfAName]).findings
    assert [(f.line, f.code) for f in wrong] == [(16, "JAX204"), (30, "JAX204"), (43, "JAX204"), (52, "JAX401"), (62, "JAX401")]
    out = confirm(wrong, {RECOMPILE: RECOMPILE}, timeout=60)
    assert [(f.line, f.dynamic["status"], f.dynamic["detail"]) for f in out if f.line in (43, 52)] == [
        (43, "refuted", "the module's jitted shift() traced once for the loop's values 0, 1, 2 of `k`: `k` is not static"),
        (52, "refuted", "evaluating jax.jit(halve) twice reuses the first trace and compilation"),
    ]


CLOSURES = os.path.join(DYN, "closures.py")


def test_capture_in_a_factory_changes_the_closure_cell():
    frozen = os.path.join(ROOT, "fixtures", "frozen_effects.py")
    got = {k: v for k, v in statuses(run_dynamic([frozen, CLOSURES])).items() if k[2] == "JAX301"}
    assert got == {
        ("frozen_effects.py", 21, "JAX301"): ("confirmed", "the trace of jitted scaled() changes when `scale` changes"),
        ("frozen_effects.py", 26, "JAX301"): ("confirmed", "the trace of jitted tempered() changes when `settings` changes"),
        ("frozen_effects.py", 96, "JAX301"): (
            "confirmed",
            "the trace of jitted make_trainer.step() changes when the closure variable `lr` changes "
            "(built by calling make_trainer())",
        ),
        ("frozen_effects.py", 302, "JAX301"): ("confirmed", "the trace of jitted Gate._run() changes when `THRESHOLD` changes"),
        ("frozen_effects.py", 338, "JAX301"): (
            "confirmed",
            "the trace of checkpointed residual_block() changes when `BLOCK_GAIN` changes",
        ),
        ("closures.py", 12, "JAX301"): (
            "confirmed",
            "the trace of jitted make_updater.update() changes when the closure variable `momentum` changes "
            "(built by calling make_updater())",
        ),
        ("closures.py", 39, "JAX301"): (
            "unverified",
            "apply() is not among what make_hidden() returned (a str) or the closures it refers to",
        ),
        ("closures.py", 54, "JAX301"): (
            "unverified",
            "could not build arguments for cfg of make_decayed() "
            "(calling make_decayed() failed: TypeError: 'int' object is not subscriptable)",
        ),
        ("closures.py", 70, "JAX301"): (
            "unverified",
            "step() is nested in train_inline(), which returns nothing: it cannot be reached from outside",
        ),
    }


class IfTestFlaggedAsCapture(FrozenCapture):
    """Test-only: flags a variable tested by an `if` in a jitted function as a frozen capture."""

    def on_capture(self, ctx, node, name, owner, attr):
        pass

    def on_test(self, ctx, kind, test, v, stmt):
        if kind == "if" and isinstance(test, cst.Name):
            ctx.report(self, test, var=test.value)


def test_capture_in_a_factory_that_does_not_change_the_trace_is_refuted():
    with open(CLOSURES, encoding="utf-8") as fh:
        text = fh.read()
    wrong = lint_source(text, CLOSURES, rules=[IfTestFlaggedAsCapture]).findings
    assert [(f.line, f.code, f.context["entry"]) for f in wrong] == [(27, "JAX301", "make_scaler.scaled")]
    out = confirm(wrong, {CLOSURES: CLOSURES}, timeout=60)
    assert [f.dynamic for f in out] == [
        {
            "status": "refuted",
            "detail": "the trace of jitted make_scaler.scaled() does not depend on the closure variable `verbose` "
            "(built by calling make_scaler())",
        }
    ]


def test_cli_drop_refuted_and_machine_output(monkeypatch, capsys):
    path = os.path.join(DYN, "static_tests.py")
    good = os.path.join(DYN, "main_writes_file.py")
    real_lint_paths = cli.lint_paths

    def with_wrong_finding(paths, cfg, args):
        out = real_lint_paths(paths, cfg, args)
        with open(path, encoding="utf-8") as fh:
            # cfg: the settings of each file (a function); this file has none of its own.
            out.extend(lint_source(fh.read(), cli.relpath(path), rules=[OverEagerIf]).findings)
        return out

    monkeypatch.setattr(cli, "lint_paths", with_wrong_finding)
    rc = cli.main([path, good, "--preview", "--dynamic", "--format", "json"])
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert rc == 1
    assert [(os.path.basename(d["path"]), d["line"], d["dynamic"]["status"]) for d in data] == [
        ("main_writes_file.py", 12, "confirmed"),
        ("static_tests.py", 12, "refuted"),
        ("static_tests.py", 19, "refuted"),
    ]
    assert data[1]["dynamic"] == {"status": "refuted", "detail": "traced without error"}
    assert "Dynamic check: 1 confirmed, 2 refuted, 0 unverified." in err
    assert "\r" not in err  # no progress when standard error is not a terminal

    rc = cli.main([path, good, "--preview", "--dynamic", "--dynamic-drop-refuted"])
    out, err = capsys.readouterr()
    assert rc == 1
    assert out.splitlines() == [
        f"{cli.relpath(good)}:12:8: JAX101 Python `if` on traced value `x` in jitted relu_broken() [confirmed]"
    ]
    assert "Dynamic check: 1 confirmed, 2 refuted, 0 unverified." in err


@pytest.mark.parametrize("fork", [True, False], ids=["fork-server", "spawned"])
def test_unimportable_modules_are_unverified_and_the_run_goes_on(fork):
    """Either way of starting the files' processes (one fork server that imported JAX, or a
    fresh interpreter per file) contains a hang, an exit and a crash to their own file."""
    if fork and not fork_server_available():
        pytest.skip("no fork server on this platform")
    names = ["import_hang.py", "import_exit.py", "import_crash.py", "import_raise.py", "import_missing.py", "main_writes_file.py"]
    paths = [os.path.join(DYN, n) for n in names]
    start = time.monotonic()
    got = statuses(dynamic.confirm(lint(paths), {p: p for p in paths}, timeout=8, fork=fork))
    elapsed = time.monotonic() - start
    assert got == {
        ("import_hang.py", 10, "JAX101"): ("unverified", "timed out after 8 s while importing the module"),
        ("import_exit.py", 10, "JAX101"): ("unverified", "the module called sys.exit(3) while being imported"),
        ("import_crash.py", 12, "JAX101"): ("unverified", "the worker process was killed by signal 9 while importing the module"),
        ("import_raise.py", 10, "JAX101"): ("unverified", "import failed: RuntimeError: configuration file not found"),
        ("import_missing.py", 10, "JAX101"): (
            "unverified",
            "import failed: ModuleNotFoundError: No module named 'jaxlint_fixture_package_that_does_not_exist'",
        ),
        ("main_writes_file.py", 12, "JAX101"): ("confirmed", "TracerBoolConversionError tracing jitted relu_broken()"),
    }
    assert elapsed < 8 + 40


KEPT_SERVER_MODULE = """\
import jax

# Read from the working folder, as a script run from its project folder does.
with open("threshold.txt") as fh:
    THRESHOLD = float(fh.read())


@jax.jit
def clip_above(x):
    if x > THRESHOLD:
        return THRESHOLD
    return x
"""


def test_a_kept_server_forks_each_file_in_its_callers_folder_and_environment(tmp_path, monkeypatch):
    """A server kept across calls runs each file as a fresh worker started by that call would:
    in the caller's working folder, and only while the environment is the one JAX was imported
    with (otherwise the call starts its own server)."""
    if not fork_server_available():
        pytest.skip("no fork server on this platform")
    code = tmp_path / "code"
    code.mkdir()
    path = str(code / "clipping.py")
    (code / "clipping.py").write_text(KEPT_SERVER_MODULE)
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "threshold.txt").write_text("1.5\n")
    findings = lint([path])
    assert [(f.line, f.code) for f in findings] == [(10, "JAX101")]
    with ForkServer() as server:
        monkeypatch.chdir(tmp_path)  # no threshold.txt here: the import fails
        (out,) = dynamic.confirm(findings, {path: path}, timeout=60, fork=server)
        assert (out.dynamic["status"], out.dynamic["detail"]) == (
            "unverified",
            "import failed: FileNotFoundError: [Errno 2] No such file or directory: 'threshold.txt'",
        )
        monkeypatch.chdir(tmp_path / "run")
        (out,) = dynamic.confirm(findings, {path: path}, timeout=60, fork=server)
        assert out.dynamic["status"] == "confirmed", out.dynamic
        assert server.files_sent == 2  # both files were forked by the kept server
        monkeypatch.setenv("JAXLINT_TEST_CHANGED_ENVIRONMENT", "1")
        assert not server.serves_this_environment()
        (out,) = dynamic.confirm(findings, {path: path}, timeout=60, fork=server)
        assert out.dynamic["status"] == "confirmed", out.dynamic
        assert server.files_sent == 2  # the call started its own server


def test_main_block_never_runs(tmp_path):
    src = os.path.join(DYN, "main_writes_file.py")
    target = tmp_path / "main_writes_file.py"
    shutil.copy(src, target)
    marker = tmp_path / "main_block_ran.txt"
    proc = subprocess.run(
        [sys.executable, "-m", "jaxlint", "--preview", "--dynamic", "--dynamic-timeout", "60", str(target)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.rstrip().endswith("in jitted relu_broken() [confirmed]")
    assert not marker.exists()
    # the block really writes the file when the module runs as a script
    subprocess.run([sys.executable, str(target)], capture_output=True, cwd=tmp_path, check=True)
    assert marker.read_text() == "the __main__ block ran\n"


def test_parent_process_never_imports_jax():
    path = os.path.join(DYN, "main_writes_file.py")
    code = (
        "import sys\n"
        "from jaxlint.cli import main\n"
        f"rc = main(['--preview', '--dynamic', '-q', {path!r}])\n"
        "assert rc == 1, rc\n"
        "assert not any(m == 'jax' or m.startswith('jax.') for m in sys.modules), 'jax imported'\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip().endswith("[confirmed]")


def test_without_jax_dynamic_exits_2(monkeypatch, capsys):
    monkeypatch.setattr(dynamic, "jax_available", lambda: False)
    rc = cli.main(["--preview", "--dynamic", os.path.join(DYN, "main_writes_file.py")])
    _, err = capsys.readouterr()
    assert rc == 2
    assert err == f"jaxlint: error: --dynamic needs JAX: {dynamic.INSTALL_HINT}\n"
    assert "python -m pip install 'jax" in dynamic.INSTALL_HINT  # JAX itself, never the index's jaxlint


def test_help_documents_the_safety_model(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "EXECUTES the module's top-level code" in out
    assert "--dynamic-timeout SECONDS" in out
    assert "--dynamic-drop-refuted" in out


def test_configured_jit_decorators_are_entry_points(tmp_path):
    """The plan sees what the engine saw: a function under a configured jit wrapper is traced."""
    (tmp_path / "mylib.py").write_text("import jax\n\n\ndef fastjit(f):\n    return jax.jit(f)\n", encoding="utf-8")
    path = tmp_path / "uses_wrapper.py"
    path.write_text(
        "from mylib import fastjit\n\n\n@fastjit\ndef f(x):\n    if x > 0:\n        return x\n    return -x\n",
        encoding="utf-8",
    )
    cfg = rule_config(extra_jit_decorators=("mylib.fastjit",))
    findings = lint_source(path.read_text(encoding="utf-8"), str(path), cfg).findings
    assert [(f.line, f.code) for f in findings] == [(6, "JAX101")]
    # the findings' facts were derived with the run's configuration
    out = confirm(findings, {str(path): str(path)}, timeout=60)
    assert [f.dynamic["status"] for f in out] == ["confirmed"]


def test_a_cross_module_finding_is_traced_through_its_entry_point_in_the_other_file(tmp_path):
    from jaxlint.engine.run import lint_files

    pkg = os.path.join(ROOT, "fixtures", "solver_pkg")
    run = lint_files([pkg], rule_config(), jobs=1, display=lambda p: os.path.relpath(p, ROOT), facts=True)
    found = [f for f in run.findings if f.path.endswith("metrics.py") and f.line in (7, 13)]
    # only the finding's own file is mapped: the entry point's file is found next to it
    real = {f.path: os.path.join(ROOT, f.path) for f in found}
    got = {(f.line, f.code): (f.dynamic["status"], f.dynamic["detail"]) for f in confirm(found, real, timeout=60)}
    assert got == {
        (7, "JAX101"): ("confirmed", "TracerBoolConversionError tracing jitted solve_step()"),
        (13, "JAX104"): ("confirmed", "ConcretizationTypeError tracing jitted report()"),
    }
    # without the entry point's file, the finding says where its entry point is
    copy = tmp_path / "solver_pkg"
    copy.mkdir()
    for name in ("__init__.py", "metrics.py"):
        shutil.copy(os.path.join(pkg, name), copy / name)
    moved = [dataclasses.replace(f, path="solver_pkg/metrics.py") for f in found if f.line == 7]
    (checked,) = confirm(moved, {"solver_pkg/metrics.py": str(copy / "metrics.py")}, timeout=60)
    assert checked.dynamic == {
        "status": "unverified",
        "detail": "its traced entry point, jitted solve_step(), is in fixtures/solver_pkg/train.py, which was not found",
    }


def test_a_static_spec_is_checked_even_when_the_module_cannot_be_imported(tmp_path):
    """jax.jit is applied to a stub of the signature: the module itself is not needed."""
    path = tmp_path / "needs_a_missing_package.py"
    path.write_text(
        "from functools import partial\n\n"
        "import jax\n"
        "import jaxlint_fixture_package_that_does_not_exist  # noqa: F401\n\n\n"
        "@partial(jax.jit, static_argnums=(2,))\n"
        "def step(x, n):\n"
        "    return x * n\n",
        encoding="utf-8",
    )
    findings = lint_source(path.read_text(encoding="utf-8"), str(path), rule_config()).findings
    assert [(f.line, f.code) for f in findings] == [(7, "JAX203")]
    (out,) = confirm(findings, {str(path): str(path)}, timeout=60)
    assert out.dynamic["status"] == "confirmed"
    assert out.dynamic["detail"].startswith("ValueError: ")


LOOK_ALIKES = '''import jax
import jax.numpy as jnp


class Grid:
    def __init__(self):
        self.shape = (4,)

    def reshape(self, *shape):
        self.shape = shape


@jax.jit
def total(x):
    return x.sum()


@jax.jit
def show(x):
    jax.debug.print(f"shape {x.shape}: {{}}", x)
    return x


def windows(data):
    out = []
    for i in range(3):
        out.append(total(data[i : i + 4]))
    return out


def regrid():
    g = Grid()
    g.reshape(2, 2)
    return g


def main():
    windows(jnp.arange(10.0))
    show(jnp.ones(3))
    regrid()
'''


class EveryWindow(ChangingShapeArg):
    """Test-only: flags every slice passed to a jitted function in a loop."""

    def check_module(self, m):
        for app in m.finder.applications:
            for call in m.analyzer.call_sites(app):
                for a in call.args:
                    if isinstance(a.value, cst.Subscript):
                        m.report(self, a.value, arg=a.value, func=app.func.name, var="i", how="changes shape with `i`")


class EveryReshapeStatement(DiscardedUpdate):
    """Test-only: flags every `name.reshape(...)` statement, whatever the object."""

    def check_module(self, m):
        for call, _scope, _ in m.index.calls:
            f = call.func
            if isinstance(f, cst.Attribute) and f.attr.value == "reshape" and isinstance(f.value, cst.Name):
                m.report(self, call, expr=call, var=f.value.value)


class EveryDebugPrint(FormattedDebugPrint):
    """Test-only: flags every jax.debug.print in traced code."""

    def on_call(self, ctx, node, q, argvals):
        if q == "jax.debug.print":
            ctx.report(self, node, api=q, var="x", advice="")


def test_recompile_and_wrong_result_checks_refute_look_alikes(tmp_path):
    path = tmp_path / "look_alikes.py"
    path.write_text(LOOK_ALIKES, encoding="utf-8")
    assert lint_source(LOOK_ALIKES, str(path), rule_config()).findings == []  # the real rules are silent
    wrong = lint_source(LOOK_ALIKES, str(path), rules=[EveryWindow, EveryReshapeStatement, EveryDebugPrint]).findings
    assert [(f.line, f.code) for f in wrong] == [(20, "JAX502"), (27, "JAX205"), (33, "JAX501")]
    out = confirm(wrong, {str(path): str(path)}, timeout=60)
    assert [(f.line, f.dynamic["status"], f.dynamic["detail"]) for f in out] == [
        (20, "refuted", "the string printed by line 20 shows no tracer: 'shape (3,): {}'"),
        (
            27,
            "refuted",
            "the module's jitted total() traced once for `x` over the loop's values 0, 1, 2 of `i`: its shape does not "
            "change (arguments from the call at line 27 in windows(), run up to it)",
        ),
        (33, "refuted", "`g` is a Grid, not a JAX array: line 33 may change it in place"),
    ]


FED_BACK = """\
import jax
import jax.numpy as jnp

DATA = jnp.ones((3, 2))


@jax.jit
def decay(x):
    return x * 0.5


@jax.jit
def scaled(x, factor):
    return x * factor


@jax.jit
def accumulate(total, batch):
    return total + batch.sum()


def halve(steps):
    x = 1.0
    for _ in range(steps):
        x = decay(x)
    return x


def scale(steps, factor):
    x = 1.0
    for _ in range(steps):
        x = scaled(x, factor)
    return x


def sum_rows():
    total = 0.0
    for i in range(3):
        total = accumulate(total, DATA[i])
    return total


@jax.jit
def step(total, count):
    return total + jnp.float32(1.0), count + 1


def count_up():
    total = 0.0
    count = 0
    for _ in range(3):
        total, count = step(total, count)
    return total, count


@jax.jit
def halve_step(x, count):
    return x * 0.5, count + 1


def halve_count():
    x = 1.0
    count = 0
    for _ in range(3):
        x, count = halve_step(x, count)
    return x, count
"""


class EveryFedBackArgument(WeakTypeFlip):
    """Test-only: flags every `x = f(x, ...)` in a loop after `x = <value>`, whatever f returns."""

    def check_module(self, m):
        for fn in m.module.body:
            if not isinstance(fn, cst.FunctionDef):
                continue
            start = {}
            for stmt in fn.body.body:
                if isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Assign):
                    start[stmt.body[0].targets[0].target.value] = stmt.body[0].value
                if not isinstance(stmt, cst.For):
                    continue
                for inner in stmt.body.body:
                    assign = inner.body[0]
                    if not (isinstance(assign, cst.Assign) and isinstance(assign.value, cst.Call)):
                        continue
                    bound = assign.targets[0].target
                    # the first name bound: the whole result, or the first element of a tuple
                    target, part = (bound.value, None) if isinstance(bound, cst.Name) else (bound.elements[0].value.value, 0)
                    for arg in assign.value.args:
                        if isinstance(arg.value, cst.Name) and arg.value.value == target and target in start:
                            func = assign.value.func.value
                            m.report(self, arg.value, arg=target, was="?", now="?", func=func, start=start[target], part=part)


def test_weak_type_check_confirms_refutes_and_never_stands_on_a_guess(tmp_path):
    path = tmp_path / "fed_back.py"
    path.write_text(FED_BACK, encoding="utf-8")
    real = lint_source(FED_BACK, str(path), rule_config()).findings
    assert [(f.line, f.column, f.code) for f in real] == [(39, 28, "JAX402"), (52, 29, "JAX402")]
    # the first element of the returned tuple takes the place of `total`; `count` stays 0
    assert [(f.line, f.dynamic["status"], f.dynamic["detail"]) for f in confirm(real[1:], {str(path): str(path)}, timeout=60)] == [
        (
            52,
            "confirmed",
            "the module's jitted step() traced and compiled again when its result took the place of `total` = 0.0; "
            "the same arguments twice compiled once",
        )
    ]
    wrong = lint_source(FED_BACK, str(path), rules=[EveryFedBackArgument]).findings
    assert [(f.line, f.code) for f in wrong] == [(25, "JAX402"), (32, "JAX402"), (39, "JAX402"), (52, "JAX402"), (65, "JAX402")]
    out = confirm(wrong, {str(path): str(path)}, timeout=60)
    assert [(f.line, f.dynamic["status"], f.dynamic["detail"]) for f in out] == [
        (25, "refuted", "the module's jitted decay() traced once when its result took the place of `x` = 1.0"),
        # `factor` is a parameter nobody passes: a guessed array's dtype would decide
        (32, "unverified", "could not build `factor` of the call at line 32 without guessing its dtype"),
        # the loop's first row of DATA for `batch`
        (
            39,
            "confirmed",
            "the module's jitted accumulate() traced and compiled again when its result took the place of `total` = 0.0; "
            "the same arguments twice compiled once",
        ),
        (
            52,
            "confirmed",
            "the module's jitted step() traced and compiled again when its result took the place of `total` = 0.0; "
            "the same arguments twice compiled once",
        ),
        # the first element of the returned tuple stays a weak float
        (65, "refuted", "the module's jitted halve_step() traced once when its result took the place of `x` = 1.0"),
    ]


METADATA_LOOK_ALIKES = """\
import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class Mixed:
    x: jax.Array
    table: object = struct.field(pytree_node=False)
    size: int = struct.field(pytree_node=False)


@struct.dataclass
class Tempered:
    x: jax.Array
    temperature: object = struct.field(pytree_node=False)


MIXED = Mixed(jnp.ones(3), jnp.arange(3.0), 3)
TEMPERED = Tempered(jnp.ones(3), jnp.float32(0.5))
"""


class EveryMetadataField(ArrayInStaticMetadata):
    """Test-only: flags every static metadata field, whatever it holds."""

    def check_module(self, m):
        for cls in m.index.classes:
            for name, decl in m.analyzer.classes.metadata_declarations(cls).items():
                m.report(self, decl, var=name, cls=cls.name, detail="")


def test_metadata_check_confirms_an_array_and_refutes_a_scalar(tmp_path):
    path = tmp_path / "metadata_look_alikes.py"
    path.write_text(METADATA_LOOK_ALIKES, encoding="utf-8")
    real = lint_source(METADATA_LOOK_ALIKES, str(path), rule_config()).findings
    assert [(f.line, f.code) for f in real] == [(19, "JAX206")]
    wrong = lint_source(METADATA_LOOK_ALIKES, str(path), rules=[EveryMetadataField]).findings
    assert [(f.line, f.code) for f in wrong] == [(9, "JAX206"), (10, "JAX206"), (16, "JAX206")]
    out = confirm(real + wrong, {str(path): str(path)}, timeout=60)
    failed = (
        "a jitted function called with a second instance built by Mixed(...) at line 19 raised ValueError: "
        "Exception raised while checking equality of metadata fields of pytree. (`table` is an array of type "
        "ArrayImpl: ValueError: The truth value of an array with more than one element is ambiguous.)"
    )
    assert [(f.line, f.dynamic["status"], f.dynamic["detail"]) for f in out] == [
        (19, "confirmed", failed),
        (9, "confirmed", failed),
        # the call fails on `table`: `size` is not what fails
        (
            10,
            "unverified",
            "the second call raised ValueError: Exception raised while checking equality of metadata fields of pytree.; "
            "`size` compares with ==, so another field fails",
        ),
        # a 0-d array compares like a bool
        (16, "refuted", "a jitted function took two instances built by Tempered(...) at line 20: their metadata compares with =="),
    ]


STALE_LOOK_ALIKES = """\
from functools import partial

import jax
import jax.numpy as jnp

ONES = jnp.ones(2)


class Scaling:
    def __init__(self, factor):
        self.factor = factor
        self.label = ""


@partial(jax.jit, static_argnames="scaling")
def rescale(x, scaling):
    return x * scaling.factor


def changed():
    scaling = Scaling(2.0)
    first = rescale(ONES, scaling)
    scaling.factor = 3.0
    return first, rescale(ONES, scaling)


def changed_before_first_call():
    scaling = Scaling(2.0)
    scaling.factor = 3.0
    return rescale(ONES, scaling)


def changed_a_copy():
    scaling = Scaling(2.0)
    first = rescale(ONES, scaling)
    scaling = Scaling(scaling.factor)
    scaling.factor = 3.0
    return first, rescale(ONES, scaling)


def unread_attribute_changed():
    scaling = Scaling(2.0)
    first = rescale(ONES, scaling)
    scaling.label = "tuned"
    return first, rescale(ONES, scaling)
"""


class EveryAttributeWriteNearAJitCall(MutatedStaticObject):
    """Test-only: flags every attribute write in a function that calls rescale(), whatever
    the order and the object."""

    def check_module(self, m):
        for w in m.index.attribute_writes:
            if w.scope.kind != "function" or w.scope.func.is_method:
                continue
            calls = [(o, c) for c, s, o in m.index.calls if s is w.scope and isinstance(c.func, cst.Name) and c.func.value == "rescale"]
            if calls:
                first = min(calls, key=lambda oc: oc[0])[1]
                m.report(self, w.node, var=f"{w.name}.{w.attr}", where="jitted rescale()", obj=w.name, related=[(first, "first call")])


def test_stale_check_confirms_a_change_between_calls_and_refutes_a_new_trace(tmp_path):
    path = tmp_path / "stale_look_alikes.py"
    path.write_text(STALE_LOOK_ALIKES, encoding="utf-8")
    real = lint_source(STALE_LOOK_ALIKES, str(path), rule_config()).findings
    assert [(f.line, f.code) for f in real] == [(23, "JAX307")]
    wrong = lint_source(STALE_LOOK_ALIKES, str(path), rules=[EveryAttributeWriteNearAJitCall]).findings
    assert [(f.line, f.code) for f in wrong] == [(23, "JAX307"), (29, "JAX307"), (37, "JAX307"), (44, "JAX307")]
    out = confirm(wrong, {str(path): str(path)}, timeout=60)
    assert [(f.line, f.dynamic["status"], f.dynamic["detail"]) for f in out] == [
        (
            23,
            "confirmed",
            "after line 23 changed `scaling.factor` (2.0 -> 3.0), jitted rescale() reused the function compiled before "
            "and returned another result than the function run eagerly (running changed())",
        ),
        # the first call comes after the change: nothing was compiled before it
        (
            29,
            "unverified",
            "running changed_before_first_call(), jitted rescale() was not called before line 29 changed `scaling.factor` (2.0 -> 3.0)",
        ),
        # a new object: a new cache entry
        (
            37,
            "refuted",
            "after line 37 changed `scaling.factor` (2.0 -> 3.0), jitted rescale() traced again for arguments it had "
            "compiled for (running changed_a_copy())",
        ),
        # the compiled function does not read the attribute: its result is right
        (
            44,
            "unverified",
            "after line 44 changed `scaling.label` ('' -> 'tuned'), jitted rescale() reused its compiled function, "
            "but its result is what the function gives run eagerly",
        ),
    ]


EveryLr = every_argument_named("lr", "`lr`")


class EveryBatchOfTotal(ChangingShapeArg):
    """Test-only: flags every slice passed to total()."""

    def check_module(self, m):
        for app in m.finder.applications:
            if app.func.name != "total":
                continue
            for call in m.analyzer.call_sites(app):
                for a in call.args:
                    if isinstance(a.value, cst.Subscript):
                        m.report(self, a.value, arg=a.value, func="total", var="", how="is a batch")


def test_running_the_loop_refutes_values_that_repeat():
    statics = os.path.join(ROOT, "fixtures", "changing_statics.py")
    shapes = os.path.join(ROOT, "fixtures", "growing_shapes.py")
    with open(statics, encoding="utf-8") as fh:
        wrong = lint_source(fh.read(), statics, rules=[EveryLr]).findings
    with open(shapes, encoding="utf-8") as fh:
        wrong += lint_source(fh.read(), shapes, rules=[EveryBatchOfTotal]).findings
    out = confirm(wrong, {statics: statics, shapes: shapes}, timeout=60)
    got = [(os.path.basename(f.path), f.line, f.dynamic["status"], f.dynamic["detail"]) for f in out]
    assert got == [
        (
            "changing_statics.py",
            30,
            "confirmed",
            "jitted sgd() traced 3 times and compiled 3 times for the 3 calls line 30 made (running decayed()); "
            "the last call repeated compiled nothing",
        ),
        # not in a loop: one call; but the fixture's driver calls train_step() in a loop whose
        # learning rate changes, and running the file shows sgd() compiling again at line 44
        ("changing_statics.py", 44, "confirmed", "observed when the file ran as a script"),
        (
            "changing_statics.py",
            58,
            "confirmed",
            "pmapped sgd() traced 3 times and compiled 3 times for the 3 calls line 58 made (running pmapped()); "
            "the last call repeated compiled nothing",
        ),
        # `lr` changes once in four iterations: two compilations, not one per iteration
        (
            "changing_statics.py",
            108,
            "unverified",
            "jitted sgd() traced twice and compiled twice for the 4 calls line 108 made (running decayed_now_and_then()): "
            "not on every call",
        ),
        # `lr` is traced
        ("changing_statics.py", 117, "refuted", "jitted sgd() traced once for the 3 calls line 117 made (running decayed_traced())"),
        # inside a step object's __call__ and a method: one call each, made by the loop around
        ("changing_statics.py", 142, "unverified", "running Optimizer.__call__(), line 142 called jitted sgd() once"),
        # the driver's run shows sgd() compiling again for each learning rate at line 163
        ("changing_statics.py", 163, "confirmed", "observed when the file ran as a script"),
        # 10 rows in batches of 4: a short last batch
        (
            "growing_shapes.py",
            55,
            "confirmed",
            "jitted total() traced twice and compiled twice for the 3 calls line 55 made (running batched()); "
            "the last call repeated compiled nothing",
        ),
        (
            "growing_shapes.py",
            63,
            "confirmed",
            "jitted total() traced twice and compiled twice for the 3 calls line 63 made (running batched_by_shape()); "
            "the last call repeated compiled nothing",
        ),
        # the batches are all full
        ("growing_shapes.py", 74, "refuted", "jitted total() traced once for the 3 calls line 74 made (running batched_evenly())"),
        ("growing_shapes.py", 81, "refuted", "jitted total() traced once for the 2 calls line 81 made (running full_batches_only())"),
        # one row at a time
        ("growing_shapes.py", 98, "refuted", "jitted total() traced once for the 3 calls line 98 made (running stacked_after_the_loop())"),
    ]


def test_weak_type_check_runs_the_loop_when_the_other_argument_comes_from_the_caller():
    path = os.path.join(ROOT, "fixtures", "weak_types.py")
    with open(path, encoding="utf-8") as fh:
        wrong = lint_source(fh.read(), path, rules=[EveryFedBackArgument]).findings
    out = {f.line: (f.dynamic["status"], f.dynamic["detail"]) for f in confirm(wrong, {path: path}, timeout=60)}
    # the look-alikes start strongly typed: one compilation
    assert {line: out[line] for line in (132, 139, 160)} == {
        132: ("refuted", "jitted accumulate() traced once for the 3 calls line 132 made (running sum_batches_typed())"),
        139: ("refuted", "jitted accumulate() traced once for the 3 calls line 139 made (running sum_batches_float32())"),
        160: ("refuted", "jitted record() traced once for the 3 calls line 160 made (running track_typed())"),
    }
    assert out[108] == (
        "confirmed",
        "jitted record() traced twice and compiled twice for the 3 calls line 108 made (running track()); "
        "the last call repeated compiled nothing",
    )


JIT_CALLS = """\
import functools

import jax
import jax.numpy as jnp

X = jnp.ones(3)


def scaled(x, a):
    return x * a


class Model:
    def __init__(self, k):
        self.k = k

    def forward(self, x):
        return x * self.k


def partial_in_loop(x):
    for _ in range(3):
        x = jax.jit(functools.partial(scaled, a=2.0))(x)
    return x


def kept_bound_method(x):
    forward = Model(2.0).forward
    for _ in range(3):
        x = jax.jit(forward)(x)
    return x


def partial_of_loop_variable(x):
    for i in range(3):
        x = jax.jit(functools.partial(scaled, a=float(i)))(x)
    return x


CASES = [lambda: partial_in_loop(X), lambda: kept_bound_method(X), lambda: partial_of_loop_variable(X)]
"""


class EveryJitCalled(JitOfFreshFunction):
    """Test-only: flags every `jax.jit(...)(...)` in a function."""

    def check_module(self, m):
        for call, scope, _ in m.index.calls:
            if scope.kind == "function" and isinstance(call.func, cst.Call) and m.finder.transform_of(call.func.func, scope):
                m.report(self, call.func, subject="`jax.jit` of something", detail="")


def test_jit_of_an_object_that_cannot_be_rebuilt_runs_the_loop(tmp_path):
    path = tmp_path / "jit_calls.py"
    path.write_text(JIT_CALLS, encoding="utf-8")
    assert [(f.line, f.code) for f in lint_source(JIT_CALLS, str(path), rule_config()).findings] == [(23, "JAX401")]
    wrong = lint_source(JIT_CALLS, str(path), rules=[EveryJitCalled]).findings
    out = confirm(wrong, {str(path): str(path)}, timeout=60)
    assert [(f.line, f.dynamic["status"], f.dynamic["detail"]) for f in out] == [
        (
            23,
            "confirmed",
            "each of the 3 objects `jax.jit` made on line 23 traced its function again on its first call, with arguments "
            "of the same shapes and dtypes, into the same program (compiled 3 times, running partial_in_loop())",
        ),
        # one bound method object, kept: JAX's cache entry for it is reused
        (30, "refuted", "the 3 objects `jax.jit` made on line 30 shared one trace (running kept_bound_method())"),
        # a new program on each iteration is what the loop asks for
        (
            36,
            "unverified",
            "running partial_of_loop_variable(), the objects `jax.jit` made on line 36 compiled different programs",
        ),
    ]


NESTED = """\
import jax
import jax.numpy as jnp

OUT = []


def two_phases(x):
    scale = 1.0

    def scale_by(v):
        return v * scale

    scaled = jax.jit(scale_by)
    OUT.append(scaled(x))
    scale = 10.0
    OUT.append(scaled(x))


def jitted_again(x):
    scale = 1.0

    def scale_by(v):
        return v * scale

    OUT.append(jax.jit(scale_by)(x))
    scale = 10.0
    OUT.append(jax.jit(scale_by)(x))


def new_shape(x):
    scale = 1.0

    def scale_by(v):
        return v * scale

    scaled = jax.jit(scale_by)
    OUT.append(scaled(x))
    scale = 10.0
    OUT.append(scaled(jnp.ones(5)))


def rebound_after_the_last_call(x):
    scale = 1.0

    def scale_by(v):
        return v * scale

    OUT.append(jax.jit(scale_by)(x))
    scale = 10.0
    OUT.append(scale)


two_phases(jnp.ones(2))
jitted_again(jnp.ones(2))
new_shape(jnp.ones(2))
rebound_after_the_last_call(jnp.ones(2))


def made_each_phase(x):
    for scale in (1.0, 10.0):

        def scale_by(v):
            return v * scale

        OUT.append(jax.jit(scale_by)(x))


made_each_phase(jnp.ones(2))
"""


class EveryCapture(FrozenCapture):
    """Test-only: flags every variable a traced function reads from outside."""

    def on_capture(self, ctx, node, name, owner, attr):
        ctx.report(self, node, var=name)


def test_capture_in_a_function_that_returns_nothing_runs_it(tmp_path):
    path = tmp_path / "nested.py"
    path.write_text(NESTED, encoding="utf-8")
    # made_each_phase() jits a def made anew for each float it loops over: a jit made once, taking
    # the float as an argument, would compile once, so that is a needless compilation per phase
    assert [(f.line, f.code) for f in lint_source(NESTED, str(path), rule_config()).findings] == [
        (11, "JAX301"),
        (23, "JAX301"),
        (34, "JAX301"),
        (65, "JAX401"),
    ]
    wrong = lint_source(NESTED, str(path), rules=[EveryCapture]).findings
    out = confirm(wrong, {str(path): str(path)}, timeout=60)
    stale = "jitted scale_by() reused the function compiled before and returned another result than the function run eagerly"
    assert [(f.line, f.dynamic["status"], f.dynamic["detail"]) for f in out] == [
        (11, "confirmed", f"after `scale` was rebound, {stale} (running two_phases())"),
        # jax.jit of the same function again reuses its trace
        (23, "confirmed", f"after `scale` was rebound, {stale} (running jitted_again())"),
        # the new shape traces again and sees the new value; the old shape would not
        (
            34,
            "unverified",
            "after `scale` was rebound, jitted scale_by() traced again, for arguments of other shapes (running new_shape())",
        ),
        (
            46,
            "unverified",
            "running rebound_after_the_last_call(), `scale` was not rebound between two calls of jitted scale_by()",
        ),
        # a def run again is a new function: its trace sees the new value
        (
            63,
            "refuted",
            "after `scale` was rebound, jitted scale_by() traced again for arguments it had compiled for (running made_each_phase())",
        ),
    ]


# A small library, as a wheel the test builds from these files and installs into a folder of
# its own (no network): dynamic mode runs on the installed files.
INSTALLED_PKG = {
    "__init__.py": "from .train import relu, step\n",
    "config.py": "SCALE = 2.0\n",
    "ops.py": (
        "import jax.numpy as jnp\n"
        "\n"
        "\n"
        "def clip_positive(x):\n"
        "    if x.sum() > 0:  # error: JAX101, traced from train.step\n"
        "        return x\n"
        "    return -x\n"
        "\n"
        "\n"
        "def scaled(x, factor):\n"
        "    return x * factor\n"
    ),
    "train.py": (
        "import jax\n"
        "import jax.numpy as jnp\n"
        "\n"
        "from . import config\n"
        "from .ops import clip_positive, scaled\n"
        "\n"
        "\n"
        "@jax.jit\n"
        "def step(x: jax.Array):\n"
        "    return scaled(clip_positive(x), config.SCALE)\n"
        "\n"
        "\n"
        "@jax.jit\n"
        "def relu(x: jax.Array):\n"
        "    if x.sum() > 0:  # error: JAX101\n"
        "        return x\n"
        "    return jnp.zeros_like(x)\n"
        "\n"
        "\n"
        "@jax.jit\n"
        "def shift(x: jax.Array):\n"
        "    n = config.SCALE\n"
        "    if n > 1:  # a module constant: a Python test\n"
        "        return x + n\n"
        "    return x\n"
    ),
}


def _wheel(folder, name, files):
    """A wheel of the package ``name`` holding ``files``, written into ``folder``."""
    import base64
    import hashlib
    import zipfile

    dist = f"{name}-0.1.dist-info"
    entries = {f"{name}/{k}": v for k, v in files.items()}
    entries[f"{dist}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n"
    entries[f"{dist}/WHEEL"] = "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    record = []
    for k, v in entries.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(v.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{k},sha256={digest},{len(v.encode())}")
    record.append(f"{dist}/RECORD,,")
    entries[f"{dist}/RECORD"] = "\n".join(record) + "\n"
    path = os.path.join(folder, f"{name}-0.1-py3-none-any.whl")
    with zipfile.ZipFile(path, "w") as z:
        for k, v in entries.items():
            z.writestr(k, v)
    return path


def test_an_installed_library_is_imported_by_its_package_name(tmp_path):
    name = "jaxlint_installed_demo"
    wheel = _wheel(str(tmp_path), name, INSTALLED_PKG)
    site = tmp_path / "site-packages"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-index", "--no-deps", "--no-compile", "--quiet", "--target", str(site), wheel],
        check=True,
        capture_output=True,
    )
    installed = site / name
    assert sorted(os.listdir(installed)) == sorted(INSTALLED_PKG)
    env = dict(os.environ)
    # the library is importable in the user's environment, as an installed one is
    env["PYTHONPATH"] = os.pathsep.join([ROOT, str(site)])
    work = tmp_path / "work"
    work.mkdir()
    proc = subprocess.run(
        # the files, named: a folder under site-packages is excluded from discovery
        [sys.executable, "-m", "jaxlint", "--preview", "--dynamic", "--no-cache", "--format", "json"]
        + [str(installed / n) for n in sorted(INSTALLED_PKG)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 1, proc.stderr
    got = [(os.path.basename(d["path"]), d["line"], d["column"], d["code"], d["dynamic"]) for d in json.loads(proc.stdout)]
    assert got == [
        # in a helper module, reached from train.step: train.py is imported as
        # jaxlint_installed_demo.train, so its relative imports work
        (
            "ops.py",
            5,
            8,
            "JAX101",
            {"status": "confirmed", "detail": "TracerBoolConversionError tracing jitted step()"},
        ),
        ("train.py", 15, 8, "JAX101", {"status": "confirmed", "detail": "TracerBoolConversionError tracing jitted relu()"}),
    ]
    assert "Dynamic check: 2 confirmed, 0 refuted, 0 unverified." in proc.stderr


def test_arguments_come_from_the_modules_driver_code():
    got = statuses(run_dynamic([os.path.join(DYN, "driver_code.py")]))
    assert got == {
        # a parameter dict and a batch built by the module's own functions in the __main__ block
        ("driver_code.py", 21, "JAX101"): (
            "confirmed",
            "TracerBoolConversionError tracing jitted loss() (arguments from the call at line 53 in the `__main__` "
            "block, run up to it)",
        ),
        # called in a loop of main(), which the __main__ block calls
        ("driver_code.py", 30, "JAX101"): (
            "confirmed",
            "TracerBoolConversionError tracing jitted train_step() (arguments from the call at line 45 in main(), "
            "run up to it)",
        ),
        # TOLERANCE is defined only in the __main__ block: its assignment ran, and the call's
        # `batch`, a global of the block, is read from the module
        ("driver_code.py", 37, "JAX101"): ("confirmed", "TracerBoolConversionError tracing jitted normalise()"),
    }


DRIVER_WITH_SIDE_EFFECTS = '''"""The __main__ block writes files around the call; only its assignments and the call run."""

import os

import jax
import jax.numpy as jnp

HERE = os.path.dirname(os.path.abspath(__file__))


def make(n):
    return jnp.arange(float(n))


@jax.jit
def flip(x):
    if x.sum() > 0:  # error: JAX101
        return -x
    return x


if __name__ == "__main__":
    with open(os.path.join(HERE, "before.txt"), "w") as fh:
        fh.write("before")
    data = make(4)
    print(flip(data))
    with open(os.path.join(HERE, "after.txt"), "w") as fh:
        fh.write("after")
'''


def test_driver_code_runs_only_its_assignments_up_to_the_call(tmp_path):
    path = tmp_path / "side_effects.py"
    path.write_text(DRIVER_WITH_SIDE_EFFECTS)
    got = statuses(run_dynamic([str(path)]))
    assert got == {
        ("side_effects.py", 17, "JAX101"): (
            "confirmed",
            "TracerBoolConversionError tracing jitted flip() (arguments from the call at line 26 in the `__main__` "
            "block, run up to it)",
        )
    }
    assert sorted(os.listdir(tmp_path)) == ["side_effects.py"]


FAILING_DRIVER = '''"""The __main__ block fails before the call: the reason is in the finding's detail."""

import jax
import jax.numpy as jnp


def load(name):
    raise FileNotFoundError(name)


@jax.jit
def flip(params):
    if params["w"].sum() > 0:  # error: JAX101
        return -params["w"]
    return params["w"]


if __name__ == "__main__":
    params = load("params.npz")
    print(flip(params))
'''


def test_driver_code_that_fails_before_the_call_says_why(tmp_path):
    path = tmp_path / "failing_driver.py"
    path.write_text(FAILING_DRIVER)
    got = statuses(run_dynamic([str(path)]))
    assert got == {
        ("failing_driver.py", 13, "JAX101"): (
            "unverified",
            "line 13 raised TypeError: JAX does not support string indexing; got idx='w', with guessed arguments: "
            "could not build arguments for params (the `__main__` block did not call flip() "
            "(it raised FileNotFoundError: params.npz))",
        )
    }


def test_a_nested_function_or_lambda_is_reached_through_the_enclosing_functions_call():
    got = statuses(run_dynamic([os.path.join(DYN, "driver_nested.py")]))
    assert got == {
        ("driver_nested.py", 15, "JAX101"): (
            "confirmed",
            "TracerBoolConversionError tracing fit() (arguments from the call at line 29 in the `__main__` block, "
            "run up to it)",
        ),
        # the call's `data.reshape(2, 4)` reads `data`, a global the block defined while it
        # ran for fit()
        ("driver_nested.py", 23, "JAX104"): ("confirmed", "ConcretizationTypeError tracing sweep()"),
    }


def test_arguments_come_from_a_lambda_of_a_table_of_cases():
    got = statuses(run_dynamic([os.path.join(DYN, "driver_lambdas.py")]))
    assert got == {
        ("driver_lambdas.py", 15, "JAX101"): (
            "confirmed",
            "TracerBoolConversionError tracing jitted scaled_sign() (arguments from the call at line 21 in a lambda, "
            "run up to it)",
        )
    }


def test_a_static_value_built_in_host_code_runs_the_function_around_it_with_the_modules_arguments():
    from jaxlint.engine.run import lint_files

    pkg = os.path.join(ROOT, "fixtures", "factory_pkg")
    run = lint_files([pkg], rule_config(), jobs=1, display=lambda p: os.path.relpath(p, ROOT), facts=True)
    found = [f for f in run.findings if f.path.endswith("train.py")]
    real = {f.path: os.path.join(ROOT, f.path) for f in found}
    got = {(f.line, f.code): (f.dynamic["status"], f.dynamic["detail"]) for f in confirm(found, real, timeout=60)}
    # train_step(x) and the others need `x`: the module's CASES pass them X
    assert got == {
        (13, "JAX202"): ("confirmed", "ValueError tracing train_step()"),
        (21, "JAX202"): ("confirmed", "ValueError tracing train_named()"),
        (25, "JAX202"): ("confirmed", "ValueError tracing train_fresh()"),
    }


def test_arguments_come_from_the_test_functions_of_the_package(tmp_path):
    pkg = tmp_path / "jaxlint_tested_demo"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "ops.py").write_text(
        "import jax\n"
        "import jax.numpy as jnp\n"
        "\n"
        "\n"
        "@jax.jit\n"
        "def clipped(batch):\n"
        "    if batch['x'].max() > batch['limit']:  # error: JAX101\n"
        "        return jnp.minimum(batch['x'], batch['limit'])\n"
        "    return batch['x']\n"
    )
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_ops.py").write_text(
        "import jax.numpy as jnp\n"
        "\n"
        "from jaxlint_tested_demo.ops import clipped\n"
        "\n"
        "\n"
        "def make_batch():\n"
        "    return {'x': jnp.arange(4.0), 'limit': 2.0}\n"
        "\n"
        "\n"
        "def test_clipped():\n"
        "    assert clipped(make_batch()).max() == 2.0\n"
    )
    got = statuses(run_dynamic([str(pkg / "ops.py")]))
    assert got == {
        ("ops.py", 7, "JAX101"): (
            "confirmed",
            "TracerBoolConversionError tracing jitted clipped() (arguments from the call at line 11 in test_clipped() "
            "of test_ops.py, run up to it)",
        )
    }


REPORTS = sorted(glob.glob(os.path.join(DYN, "reports", "*.py")))


def test_reductions_of_reported_bugs_are_confirmed_with_the_scripts_own_arguments():
    """Each file is a script reduced from a bug report: its arguments, a global or the object it
    changes exist only once its `__main__` block ran up to the call (or, for a stale object,
    past the change)."""
    got = statuses(run_dynamic(REPORTS))
    main = "(arguments from the call at line {} in the `__main__` block, run up to it)"
    assert got == {
        ("main_global.py", 11, "JAX101"): ("confirmed", "TracerBoolConversionError tracing jitted soft_threshold() " + main.format(18)),
        # the calls and the change are the block's own statements: the block runs past the change
        ("objective_target.py", 24, "JAX307"): (
            "confirmed",
            "after line 24 changed `objective.target` (1.0 -> 0.5), jitted ForceBalance.compute() reused the function "
            "compiled before and returned another result than the function run eagerly (running the `__main__` block)",
        ),
        # the change is made by a setter the block calls (also before the first call)
        ("reassigned_callback.py", 16, "JAX307"): (
            "confirmed",
            "after line 16 changed `self.rhs`, jitted Integrator.step() reused the function compiled before and returned "
            "another result than the function run eagerly (running the `__main__` block)",
        ),
        ("nested_objective.py", 20, "JAX101"): ("confirmed", "TracerBoolConversionError tracing fit() " + main.format(28)),
        ("stale_static.py", 27, "JAX307"): (
            "confirmed",
            "after line 27 changed `scaling.factor` (2.0 -> 3.0), jitted rescale() reused the function compiled before "
            "and returned another result than the function run eagerly (running run()) " + main.format(34),
        ),
        ("static_host.py", 20, "JAX202"): ("confirmed", "ValueError: Non-hashable static arguments are not supported."),
        ("train_loop.py", 34, "JAX101"): ("confirmed", "TracerBoolConversionError tracing jitted update() " + main.format(42)),
        ("vmap_lambda.py", 13, "JAX101"): ("confirmed", "TracerBoolConversionError tracing report() " + main.format(18)),
    }


class EveryCallOfAForwarder(ChangingShapeArg):
    """Test-only: flags every argument of every call of total_of() and decay_of(), with the
    forwarder's call of the jitted function as the related location."""

    def check_module(self, m):
        inner = {}
        for call, scope, _ in m.index.calls:
            if scope.func is not None and scope.func.name in ("total_of", "decay_of") and isinstance(call.func, cst.Name):
                inner[scope.func.name] = (call, call.func.value)
        for call, _scope, _ in m.index.calls:
            if isinstance(call.func, cst.Name) and call.func.value in inner:
                forwarded, jitted = inner[call.func.value]
                for a in call.args:
                    related = [(forwarded, f"forwarded to {jitted}() here")]
                    m.report(self, a.value, arg=a.value, func=jitted, var="", how="is forwarded", related=related)


def test_calls_through_a_forwarder_are_counted_in_the_jitted_function():
    """The function around the wrapper's call runs as it is; the calls of the jitted function
    the wrapper makes are counted: batches that divide and a strongly typed start value
    compile once (refuted), a prefix that grows and a weak start value compile again."""
    path = os.path.join(ROOT, "fixtures", "forwarding_wrappers.py")
    with open(path, encoding="utf-8") as fh:
        wrong = lint_source(fh.read(), path, rules=[EveryCallOfAForwarder]).findings
    out = confirm(wrong, {path: path}, timeout=60)
    got = [(f.line, f.dynamic["status"], f.dynamic["detail"]) for f in out]
    assert got == [
        # summed() makes one call, with the arguments the module's code passes it
        (39, "unverified", "running summed(), line 39 called jitted total() once"),
        (
            50,
            "confirmed",
            "jitted total() traced 3 times and compiled 3 times for the 3 calls line 50 made (running prefixes()); "
            "the last call repeated compiled nothing",
        ),
        (
            65,
            "confirmed",
            "jitted total() traced twice and compiled twice for the 3 calls line 65 made (running batches()); "
            "the last call repeated compiled nothing",
        ),
        (
            72,
            "confirmed",
            "jitted decay() traced twice and compiled twice for the 3 calls line 72 made (running running()); "
            "the last call repeated compiled nothing",
        ),
        (84, "refuted", "jitted total() traced once for the 3 calls line 84 made (running even_batches())"),
        (91, "refuted", "jitted decay() traced once for the 3 calls line 91 made (running running_strong())"),
    ]


class ConventionsOfEveryJit(CallingConventionChange):
    """Test-only: compares the calling conventions of equinox's filter_jit too, which binds
    the arguments to the signature before it looks its cache up."""

    def check_module(self, m):
        for app in m.finder.applications:
            if app.transform.filtered:
                unfiltered = copy.copy(app.transform)
                unfiltered.filtered = False
                app.transform = unfiltered
        super().check_module(m)


def test_calling_conventions_are_confirmed_by_jaxs_cache_and_refuted_under_filter_jit():
    """Each finding's call is made again with its own values, the parameter passed the other
    way first: jax.jit compiles again, eqx.filter_jit serves the second convention from its
    cache."""
    path = os.path.join(ROOT, "fixtures", "calling_conventions.py")
    with open(path, encoding="utf-8") as fh:
        findings = lint_source(fh.read(), path, rules=[ConventionsOfEveryJit]).findings
    out = confirm(findings, {path: path}, timeout=60)
    again = (
        "jitted {}() traced and compiled again for a call passing `{}` by {}, with the values of a call passing it "
        "by {} that had compiled; the same call twice compiled once (running {}())"
    )
    assert [(f.line, f.dynamic["status"], f.dynamic["detail"]) for f in out] == [
        (24, "confirmed", again.format("sgd_update", "lr", "keyword", "position", "train")),
        (36, "confirmed", again.format("forward", "training", "position", "keyword", "fit_and_evaluate")),
        (48, "confirmed", again.format("apply_dropout", "rate", "keyword", "position", "noisy_views")),
        (
            83,
            "refuted",
            "filter-jitted scale_rows() reused its compiled function when `factor` was passed by keyword instead of by "
            "position (running scaled_both_ways())",
        ),
        # a partial object's keyword, rebuilt around the recorded callable (a module global,
        # and an attribute of the object the driver made)
        (99, "confirmed", again.format("decay", "rate", "keyword", "position", "train_with_decay")),
        (110, "confirmed", again.format("decay", "rate", "keyword", "position", "Smoother.run")),
    ]


class EveryJitRepeatedByName(JitOfFreshFunction):
    """Test-only: flags every `jax.jit(...)` in a function, naming as the loop that runs it
    again and again the first call in a loop of anything of the function's name (`dict.update`
    for a method `update`)."""

    def check_module(self, m):
        for call, scope, _ in m.index.calls:
            if scope.kind != "function" or any(a <= _ <= b for a, b in scope.loops):
                continue
            found = m.finder.transform_of(call.func, scope)
            if not call.args or found is None or not found[0].cached:
                continue
            name = scope.func.name
            for other, where, order in m.index.calls:
                f = other.func
                called = f.value if isinstance(f, cst.Name) else f.attr.value if isinstance(f, cst.Attribute) else None
                if called == name and any(a <= order <= b for a, b in where.loops):
                    m.report(self, call, subject="`jax.jit` of a function", detail="", repeated_by=other)
                    break


def test_a_jit_made_on_each_call_is_observed_through_the_loop_that_repeats_it():
    """The function around `jax.jit(...)` makes one jitted object per run: the function whose
    loop runs it again and again runs as it is.  A loop that calls another `update` (of a dict)
    never runs the method twice."""
    path = os.path.join(ROOT, "fixtures", "fresh_callables.py")
    with open(path, encoding="utf-8") as fh:
        wrong = lint_source(fh.read(), path, rules=[EveryJitRepeatedByName]).findings
    out = confirm(wrong, {path: path}, timeout=60)
    made = (
        "each of the 3 objects `jax.jit` made on line {} traced its function again on its first call, with arguments "
        "of the same shapes and dtypes, into the same program (compiled 3 times, running {}())"
    )
    assert [(f.line, f.dynamic["status"], f.dynamic["detail"]) for f in out] == [
        (33, "confirmed", made.format(33, "method_called_in_loop")),
        # the loop calls dict.update: Stepper.update() runs once, whichever function runs
        (49, "unverified", "running Stepper.update(), line 49 made 1 jitted object(s) that were called"),
        # a nested def: rebuilt twice on its own
        (
            90,
            "confirmed",
            "each evaluation of jax.jit(step) traces and compiles again: the second traced once and compiled once with "
            "the same arguments; one jitted object called twice compiled once",
        ),
        (244, "confirmed", made.format(244, "named_grad_called_in_loop")),
    ]


class EveryAttributeOfAnInit(NnxDataInStaticAttr):
    """Test-only: flags every `self.name = ...` of every constructor, data or not."""

    def check_module(self, m):
        for f in m.index.functions:
            if f.name != "__init__" or f.cls is None:
                continue
            for stmt in f.node.body.body:
                for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
                    if isinstance(small, cst.Assign) and isinstance(small.targets[0].target, cst.Attribute):
                        attr = small.targets[0].target.attr.value
                        m.report(self, small.value, var=f"self.{attr}", cls=f.cls.name, what="a value", how="")


def test_building_the_class_as_the_module_does_refutes_attributes_flax_accepts():
    """A finding in a constructor: the class is built with the arguments the module's code
    passes it.  nnx.List, nnx.Dict, nnx.data, a class-level declaration, `pytree=False` and a
    plain class are accepted: refuted."""
    path = os.path.join(ROOT, "fixtures", "nnx_static_attributes.py")
    with open(path, encoding="utf-8") as fh:
        findings = lint_source(fh.read(), path, rules=[EveryAttributeOfAnInit]).findings
    out = confirm([f for f in findings if f.line >= 116], {path: path}, timeout=60)
    ran = "building {} ran line {} without error ({})"
    assert [(f.line, f.dynamic["status"], f.dynamic["detail"]) for f in out if f.line < 200] == [
        (118, "refuted", ran.format("MLPList", 118, "the call at line 164 in run_list()")),
        (119, "refuted", ran.format("MLPList", 119, "the call at line 164 in run_list()")),
        (129, "refuted", ran.format("MultiHeadDict", 129, "the call at line 188 in a lambda")),
        (130, "refuted", ran.format("MultiHeadDict", 130, "the call at line 188 in a lambda")),
        (137, "refuted", ran.format("Declared", 137, "the call at line 189 in a lambda")),
        (142, "refuted", ran.format("NotAPytree", 142, "the call at line 190 in a lambda")),
        (147, "refuted", ran.format("DenseOptional", 147, "the call at line 191 in a lambda")),
        (148, "refuted", ran.format("DenseOptional", 148, "the call at line 191 in a lambda")),
        (149, "refuted", ran.format("DenseOptional", 149, "the call at line 191 in a lambda")),
        (150, "refuted", ran.format("DenseOptional", 150, "the call at line 191 in a lambda")),
        # a plain class (not an NNX module), built as its source shows it built
        (155, "refuted", ran.format("Config", 155, "Config()")),
    ]
    # data wrapped in nnx.static(...) is refused; the constructor stops there, so the lines
    # after it are not reached
    marked = {f.line: f.dynamic for f in out if f.line >= 200}
    assert marked[207]["status"] == "confirmed" and "annotated with nnx.static(...)" in marked[207]["detail"]
    assert [(line, d["status"]) for line, d in sorted(marked.items()) if line != 207] == [(208, "unverified"), (209, "unverified")]


class EveryJittedMethodCall(TracedSelfNotPytree):
    """Test-only: flags every call of a jitted method or jitted callable instance, whatever
    its class and static spec."""

    def check_module(self, m):
        for call, scope, _ in m.index.calls:
            f = call.func
            if isinstance(f, cst.Attribute) and f.attr.value in ("power", "apply") or isinstance(f, cst.Name) and f.value in ("layer", "scale"):
                receiver = f.value if isinstance(f, cst.Attribute) else f
                if isinstance(receiver, cst.Name) and receiver.value == "model":
                    continue  # a Linen module's own `apply`, inside the jitted functions
                m.report(self, receiver, var=m.module.code_for_node(receiver), leaf="?", remedy="?", func="?", param="self")


def test_a_static_or_pytree_self_is_refuted_by_calling_the_method():
    """The function around the call runs as it is: `self` counted in static_argnums, a
    `self` named static, an equinox Module and a plain jitted function all trace."""
    path = os.path.join(ROOT, "fixtures", "traced_self.py")
    with open(path, encoding="utf-8") as fh:
        findings = lint_source(fh.read(), path, rules=[EveryJittedMethodCall]).findings
    out = confirm(findings, {path: path}, timeout=60)
    assert [(f.line, f.dynamic["status"], f.dynamic["detail"]) for f in out] == [
        (67, "refuted", "traced without error"),
        (71, "refuted", "traced without error"),
        (76, "refuted", "traced without error"),
        (85, "refuted", "traced without error"),
    ]


class EveryPredictorCall(ChangingShapeArg):
    """Test-only: flags the second argument of every `predictor(...)` call, with the call of
    the jitted lambda in `Predictor.__call__` as the related location."""

    def check_module(self, m):
        inner = next(c for c, s, _ in m.index.calls if s.func is not None and s.func.name == "__call__")
        for call, _scope, _ in m.index.calls:
            if isinstance(call.func, cst.Name) and call.func.value == "predictor":
                related = [(inner, "forwarded to <lambda>() here")]
                m.report(self, call.args[1].value, arg=call.args[1].value, func="<lambda>", var="", how="is forwarded", related=related)


def test_a_jitted_lambda_made_in_init_is_watched_by_its_code():
    """`self._forward = jax.jit(lambda ...)` in `__init__`: each instance jits a new lambda of
    one code, found in `__init__`'s code; its calls are counted.  A prefix that grows compiles
    on each call, a batch padded to one size once."""
    path = os.path.join(ROOT, "fixtures", "recompile_through_callables.py")
    with open(path, encoding="utf-8") as fh:
        findings = lint_source(fh.read(), path, rules=[EveryPredictorCall]).findings
    out = confirm(findings, {path: path}, timeout=60)
    lam = "jitted Predictor.__init__.<lambda>()"
    assert [(f.line, f.dynamic["status"], f.dynamic["detail"]) for f in out] == [
        (
            79,
            "confirmed",
            f"{lam} traced 3 times and compiled 3 times for the 3 calls line 79 made (running predict_prefixes()); "
            "the last call repeated compiled nothing",
        ),
        (116, "refuted", f"{lam} traced once for the 3 calls line 116 made (running predict_padded())"),
    ]
