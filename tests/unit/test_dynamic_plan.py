"""The dynamic planner on its own (no JAX, no worker): it plans from the findings' facts, and
every key it writes is one jaxlint.dynamic.protocol declares."""

from __future__ import annotations

import dataclasses
import functools
import glob
import json
import os

import pytest

from fixture_units import rule_config
from jaxlint.dynamic import plan, protocol
from jaxlint.engine import cache
from jaxlint.engine.pipeline import lint_source, read_and_lint
from jaxlint.findings import FindingFacts
from jaxlint.rules.prevents import ErrorPattern, raises, wrong_result
from jaxlint.rules.traced_values.traced_if import TracedIf

from clirun import ROOT
FIXTURES = sorted(glob.glob(os.path.join(ROOT, "fixtures", "**", "*.py"), recursive=True))


@functools.lru_cache(maxsize=None)
def fixture_findings() -> tuple:
    """Every fixture's findings, linted once for all the tests that read them."""
    out = []
    for p in FIXTURES:
        out.extend(read_and_lint(p, p, rule_config()).findings)
    return tuple(out)


def declared(td) -> set:
    keys = set()
    for klass in getattr(td, "__mro__", (td,)):
        keys |= set(getattr(klass, "__annotations__", {}))
    return keys


def _check_value(v, where, problems):
    if not isinstance(v, dict):
        problems.append(f"{where}: not an object: {v!r}")
        return
    extra = set(v) - declared(protocol.Value)
    if extra:
        problems.append(f"{where}: undeclared Value keys {sorted(extra)}")
    for i, inner in enumerate(v.get("pos") or ()):
        _check_value(inner, f"{where}.pos[{i}]", problems)


def _check_argsets(argsets, where, problems):
    for i, s in enumerate(argsets or ()):
        extra = set(s) - declared(protocol.ArgSet)
        if extra:
            problems.append(f"{where}[{i}]: undeclared ArgSet keys {sorted(extra)}")
        for a in s["args"]:
            extra = set(a) - declared(protocol.Arg)
            if extra:
                problems.append(f"{where}[{i}]: undeclared Arg keys {sorted(extra)}")
            _check_value(a["value"], f"{where}[{i}].{a['name']}", problems)


def _check_callee(d, td, where, problems):
    if d is None:
        return
    extra = set(d) - declared(td)
    if extra:
        problems.append(f"{where}: undeclared {td.__name__} keys {sorted(extra)}")
    target = d["target"]
    extra = set(target) - declared(protocol.Target)
    if extra:
        problems.append(f"{where}.target: undeclared Target keys {sorted(extra)}")
    for c in target.get("ctors") or ():
        extra = set(c) - declared(protocol.Constructor)
        if extra:
            problems.append(f"{where}.target.ctors: undeclared keys {sorted(extra)}")
    fac = target.get("factory")
    if fac is not None:
        extra = set(fac) - declared(protocol.Factory)
        if extra:
            problems.append(f"{where}.target.factory: undeclared keys {sorted(extra)}")
        _check_argsets(fac["argsets"], f"{where}.factory.argsets", problems)
    _check_argsets(d.get("argsets"), f"{where}.argsets", problems)
    _check_argsets(d.get("then"), f"{where}.then", problems)


def _check_construction(ctor, where, problems):
    extra = set(ctor) - declared(protocol.Construction)
    if extra:
        problems.append(f"{where}: undeclared Construction keys {sorted(extra)}")
    for i, v in enumerate(ctor["pos"]):
        _check_value(v, f"{where}.pos[{i}]", problems)
    for k, v in ctor["kw"].items():
        _check_value(v, f"{where}.kw.{k}", problems)


@pytest.mark.slow  # lints every fixture
def test_every_key_of_plans_and_facts_is_declared_by_the_protocol():
    findings = fixture_findings()
    assert len(findings) >= 150
    checks = plan.plan_checks(findings)
    problems = []
    kinds = set()
    for f, c in zip(findings, checks):
        where = f"{os.path.basename(f.path)}:{f.line} {f.code}"
        json.dumps(c)  # plain JSON
        kinds.add(c["kind"])
        extra = set(c) - declared(protocol.Check)
        if extra:
            problems.append(f"{where}: undeclared Check keys {sorted(extra)}")
        for i, d in enumerate(c.get("drivers") or ()):
            _check_callee(d, protocol.Driver, f"{where}.drivers[{i}]", problems)
        _check_argsets(c.get("argsets"), f"{where}.argsets", problems)
        for a in c.get("args") or ():
            _check_value(a["value"], f"{where}.args", problems)
        for v in c.get("values") or ():
            _check_value(v, f"{where}.values", problems)
        _check_callee(c.get("watched"), protocol.Callee, f"{where}.watched", problems)
        for i, ctor in enumerate(c.get("ctors") or ()):
            _check_construction(ctor, f"{where}.ctors[{i}]", problems)
        facts = f.facts
        assert facts is not None, where
        for name in ("traced", "site", "host", "builder"):
            _check_callee(getattr(facts, name), protocol.Callee, f"{where}.facts.{name}", problems)
        if facts.call is not None:
            extra = set(facts.call) - declared(protocol.CallFacts)
            if extra:
                problems.append(f"{where}.facts.call: undeclared keys {sorted(extra)}")
            _check_callee(facts.call.get("callee"), protocol.Callee, f"{where}.facts.call.callee", problems)
            loop = facts.call.get("loop")
            if loop is not None and set(loop) - declared(protocol.Loop):
                problems.append(f"{where}.facts.call.loop: undeclared keys {sorted(set(loop) - declared(protocol.Loop))}")
        if facts.instance is not None:
            if set(facts.instance) - declared(protocol.InstanceFacts):
                problems.append(f"{where}.facts.instance: undeclared keys {sorted(set(facts.instance) - declared(protocol.InstanceFacts))}")
            for i, ctor in enumerate(facts.instance["ctors"]):
                _check_construction(ctor, f"{where}.facts.instance.ctors[{i}]", problems)
        if facts.related_call is not None:
            rc = facts.related_call
            if set(rc) - declared(protocol.RelatedCall):
                problems.append(f"{where}.facts.related_call: undeclared keys {sorted(set(rc) - declared(protocol.RelatedCall))}")
            _check_callee(rc.get("callee"), protocol.Callee, f"{where}.facts.related_call.callee", problems)
            _check_callee(rc.get("runner"), protocol.Callee, f"{where}.facts.related_call.runner", problems)
        if facts.jitted is not None:
            if set(facts.jitted) - declared(protocol.Signature):
                problems.append(f"{where}.facts.jitted: undeclared keys")
            for p in facts.jitted["params"]:
                if set(p) - declared(protocol.ParamFacts):
                    problems.append(f"{where}.facts.jitted.params: undeclared keys")
        if facts.rebuild is not None:
            if set(facts.rebuild) - declared(protocol.Rebuild):
                problems.append(f"{where}.facts.rebuild: undeclared keys {sorted(set(facts.rebuild) - declared(protocol.Rebuild))}")
            _check_argsets(facts.rebuild.get("argsets"), f"{where}.facts.rebuild.argsets", problems)
    assert problems == []
    assert kinds <= set(protocol.Check.__annotations__["kind"].__args__)
    assert {
        "trace",
        "capture",
        "effect",
        "static",
        "retrace",
        "fresh_jit",
        "unchanged",
        "formatted-tracer",
        "pytree_arg",
        "stale",
        "jax_api",
    } <= kinds


@pytest.mark.slow  # lints every fixture
def test_the_planner_reads_facts_only(monkeypatch):
    """No parse, no positions, no source: a plan comes from the findings alone."""
    findings = fixture_findings()
    want = plan.plan_checks(findings)

    def forbidden(*a, **k):
        raise AssertionError("the planner must not parse or compute positions")

    import libcst

    from jaxlint.engine import module_analysis, positions

    monkeypatch.setattr(libcst, "parse_module", forbidden)
    monkeypatch.setattr(positions, "node_positions", forbidden)
    monkeypatch.setattr(module_analysis, "node_positions", forbidden)
    monkeypatch.setattr("builtins.open", forbidden)
    # the message text is not read either: the same plan from findings with other messages
    reworded = [dataclasses.replace(f, message="reworded", fix="") for f in findings]
    assert plan.plan_checks(reworded) == want


@pytest.mark.slow  # lints every fixture
def test_facts_survive_the_result_cache():
    for f in fixture_findings():
        back = cache.finding_from_json(json.loads(json.dumps(cache.finding_to_json(f))))
        assert back.facts == f.facts


class IfAsWrongResult(TracedIf):
    """Test-only: a code the planner has never seen, which says only what JAX does."""

    code = "JAX990"
    prevents = raises(ErrorPattern("TracerBoolConversionError"))


class IfAsUnchanged(TracedIf):
    code = "JAX991"
    prevents = wrong_result("nothing", observe="unchanged")


def test_a_new_code_is_planned_from_its_prevents_declaration(monkeypatch):
    text = "import jax\n\n\n@jax.jit\ndef f(x):\n    if x > 0:\n        return x\n    return -x\n"
    monkeypatch.setitem(plan.RULES_BY_CODE, "JAX990", IfAsWrongResult)
    monkeypatch.setitem(plan.RULES_BY_CODE, "JAX991", IfAsUnchanged)
    (found,) = lint_source(text, "new.py", rules=[IfAsWrongResult]).findings
    (check,) = plan.plan_checks([found])
    assert check["kind"] == "trace"
    assert check["expect"] == [["TracerBoolConversionError", ""]]
    assert [(d["how"], d["label"], d["target"]["qualname"]) for d in check["drivers"]] == [("jaxpr", "jitted f()", "f")]
    (found,) = lint_source(text, "new.py", rules=[IfAsUnchanged]).findings
    assert found.facts.variable == "x"
    (check,) = plan.plan_checks([found])
    assert (check["kind"], check["var"]) == ("unchanged", "x")


def test_examples_come_from_the_values_the_module_passes():
    path = os.path.join(ROOT, "fixtures", "dynamic", "host_values.py")
    findings = read_and_lint(path, path, rule_config()).findings
    first = {f.line: f.facts.traced["argsets"][0] for f in findings}

    def values(argset):
        return {a["name"]: a["value"] for a in argset["args"]}

    by_line = {f.line: f.facts.traced["label"] for f in findings}
    step = next(line for line, label in by_line.items() if label == "jitted step()")
    # nested in print(...)
    assert values(first[step]) == {"x": {"k": "expr", "src": "jax.numpy.ones(20)"}}
    normalise = next(line for line, label in by_line.items() if label == "jitted normalise()")
    # the last assignment before the call, not the first
    assert values(first[normalise]) == {"x": {"k": "expr", "src": "numpy.linspace(0.0, 1.0, 12)"}}
    predict = next(line for line, label in by_line.items() if label == "jitted predict()")
    assert values(first[predict]) == {
        "params": {"k": "expr", "src": "Params(jax.numpy.ones((4, 5)), jax.numpy.zeros(5))"},
        "x": {"k": "expr", "src": "jax.numpy.ones((2, 4))"},
    }
    halve = next(line for line, label in by_line.items() if label == "jitted halve()")
    # through the plain wrapper run_halve(v), from what its caller passes
    assert values(first[halve]) == {"v": {"k": "expr", "src": "jax.numpy.ones(14)"}}
    apply = next(line for line, label in by_line.items() if label == "jitted Scaler.apply()")
    assert values(first[apply]) == {"x": {"k": "expr", "src": "jax.numpy.ones(15)"}}
    ctors = next(f for f in findings if f.line == apply).facts.traced["target"]["ctors"]
    assert ctors[0] == {"pos": [{"k": "py", "src": "2.0"}], "kw": {}}


def test_a_traced_parameter_does_not_take_the_callers_value():
    """Inside a jitted function a parameter is a tracer, whatever its callers pass."""
    path = os.path.join(ROOT, "fixtures", "static_args.py")
    (f,) = [f for f in read_and_lint(path, path, rule_config()).findings if f.line == 130]
    assert f.facts.value_kind == "tracer"
    (check,) = plan.plan_checks([f])
    eps = next(a for a in check["args"] if a["name"] == "eps")
    assert eps["value"] == {"k": "py", "src": "[1, 2]"}


@pytest.mark.parametrize("meta", ["JAX001", "JAX002"])
def test_the_linters_own_codes_have_no_check(meta):
    text = "import jax\n\n\n@jax.jit\ndef f(x):\n    if x > 0:\n        return x\n    return -x\n"
    (found,) = lint_source(text, "m.py", rule_config()).findings
    f = dataclasses.replace(found, code=meta, facts=FindingFacts())
    (check,) = plan.plan_checks([f])
    assert check == {"code": meta, "line": f.line, "end_line": f.end_line, "kind": "none", "reason": f"no dynamic check for {meta}"}


def test_a_weak_type_flip_is_planned_from_its_starting_value_and_the_calls_own_arguments():
    path = os.path.join(os.path.dirname(FIXTURES[0]), "weak_types.py")
    checks = {c["line"]: c for c in plan.plan_checks(read_and_lint(path, path, rule_config()).findings) if c["code"] == "JAX402"}
    halve = checks[94]
    assert (halve["kind"], halve["fed_back"], halve["param"], halve["values"], halve["result_part"]) == (
        "retrace",
        True,
        "x",
        [{"k": "py", "src": "1"}],
        None,
    )
    assert [a["args"] for a in halve["drivers"][0]["argsets"]] == [[{"name": "x", "kind": "pos", "static": False, "value": {"k": "py", "src": "1"}}]]
    # `batch` is a row of the array the module passes the function around the loop: that
    # function runs as it is, never on a guessed array
    default = checks[87]
    assert (default["kind"], default["every"], default["call_line"]) == ("host_calls", False, 87)
    (driver,) = default["drivers"]
    assert driver["label"] == "sum_batches_default()"
    assert [a["source"] for a in driver["argsets"] if not a["source"].endswith("guesses")] == ["call at line 204"]
    assert default["watched"]["label"] == "jitted accumulate()"


def test_the_starting_value_is_the_literal_the_argument_starts_as():
    path = os.path.join(os.path.dirname(FIXTURES[0]), "weak_types.py")
    calls = {f.line: f.facts.call for f in read_and_lint(path, path, rule_config()).findings if f.code == "JAX402"}
    assert calls[87]["start"] == {"k": "py", "src": "0.0"}  # the parameter's default, not the caller's array
    assert calls[81]["start"] == {"k": "expr", "src": "jax.numpy.asarray(0.0)"}
    assert calls[122]["start"] == {"k": "expr", "src": "Totals()"}
    assert {c["result_part"] for c in calls.values()} == {None}


def test_an_array_in_static_metadata_is_planned_from_the_modules_constructions():
    path = os.path.join(ROOT, "fixtures", "static_metadata.py")
    checks = {c["line"]: c for c in plan.plan_checks(read_and_lint(path, path, rule_config()).findings)}
    masked = checks[25]
    assert (masked["kind"], masked["cls"], masked["attr"]) == ("pytree_arg", "MaskedLinear", "mask")
    assert masked["expect"] == [["ValueError", r"checking equality of metadata fields|static arguments should be comparable"]]
    assert masked["ctors"] == [
        {"pos": [{"k": "expr", "src": "jax.numpy.ones(3)"}, {"k": "expr", "src": "jax.numpy.ones(3)"}], "kw": {}, "line": 150}
    ]
    # an argument of a construction: that construction alone
    assert [c["line"] for c in checks[57]["ctors"]] == [57]


def test_a_changed_static_object_is_planned_from_the_call_it_follows():
    path = os.path.join(ROOT, "fixtures", "mutated_statics.py")
    checks = {c["line"]: c for c in plan.plan_checks(read_and_lint(path, path, rule_config()).findings)}
    # the change is made by a method: the code around the first call runs it
    by_method = checks[67]
    assert (by_method["kind"], by_method["attribute"], by_method["call_line"], by_method["repeat"]) == ("stale", "self.gain", 80, False)
    assert [d["label"] for d in by_method["drivers"]] == ["static_self_changed_by_method()"]
    assert by_method["watched"]["label"] == "jitted Filter.__call__()"
    # a method that changes its own object after calling the jitted method: run twice
    learn = checks[120]
    assert ([d["label"] for d in learn["drivers"]], learn["repeat"]) == (["Learner.learn()"], True)


def test_an_error_after_the_trace_is_not_checked_by_tracing():
    """JAX309: tracing succeeds and the error comes when the escaped closure is called later; a
    trace check would refute a true finding, so there is none, and the reason says why."""
    text = (
        "import jax\n\nHOOKS = []\n\n\n@jax.jit\ndef step(x):\n    HOOKS.append(lambda: x * 2)\n    return x\n"
    )
    found = [f for f in lint_source(text, "m.py", rule_config()).findings if f.code == "JAX309"]
    assert found, [f.code for f in lint_source(text, "m.py", rule_config()).findings]
    (check,) = plan.plan_checks(found[:1])
    assert check["kind"] == "none"
    assert check["reason"] == "JAX309's error comes when the leaked value is used after the trace, which no dynamic check drives yet"
