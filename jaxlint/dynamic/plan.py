"""What to run to confirm each finding, read from the finding's structured facts.

The engine gives every finding its facts (jaxlint.engine.finding_facts): the traced entry point
and how to reach it, the enclosing host function, the call of a jitted callable, example
arguments.  The rule's ``prevents`` declaration (jaxlint.rules.prevents) says what JAX does;
together they decide the check.  Nothing here reads the source, parses it or maps a finding
back to the code by its position: a code the planner has never seen gets a check from its
declaration alone.  ``jaxlint.dynamic.protocol`` says what the plan's keys are.
"""

from __future__ import annotations

from typing import List, Optional, Sequence

from jaxlint.dynamic.examples.values import SIZE, arr, py
from jaxlint.dynamic.protocol import Check, Driver, Value
from jaxlint.findings import Finding, FindingFacts
from jaxlint.rules import RULES_BY_CODE

NO_ENTRY = "no entry point reachable from the module (nested function or lambda)"

# A value of the kind the engine saw passed for a static parameter.
_UNHASHABLE_EXAMPLES = {"dict": "{'a': 1}", "set": "{1, 2}", "list": "[1, 2]"}


def _driver(callee: Optional[dict], how: str, **extra) -> Optional[Driver]:
    if callee is None:
        return None
    d = dict(callee)
    d["how"] = how
    d.update(extra)
    return d  # type: ignore[return-value]


def _planned(check: dict, kind: str, **keys) -> Check:
    """``check`` made a check of ``kind``, with ``keys``."""
    check["kind"] = kind
    check.update(keys)
    return check  # type: ignore[return-value]


def _none(check: dict, reason: str) -> Check:
    return _planned(check, "none", reason=reason)


def expected_errors(prevents) -> List[List[str]]:
    """The worker's form of a rule's declared errors: [class name, message regex] pairs."""
    return [[e.exception, e.message] for e in prevents.errors]


def _unreachable(facts: FindingFacts) -> str:
    return facts.unreachable or NO_ENTRY


def _traced_or_host(facts: FindingFacts, traced_how: str) -> List[Driver]:
    """The traced entry point, else the module-level function around the finding, called."""
    if facts.traced is not None:
        how = "jvp" if traced_how == "jaxpr" and facts.traced.get("differentiated") else traced_how
        return [_driver(facts.traced, how)]
    if facts.host is not None:
        return [_driver(facts.host, "call")]
    return []


def plan_finding(finding: Finding) -> Check:
    check: dict = {"code": finding.code, "line": finding.line, "end_line": finding.end_line}
    facts = finding.facts
    if facts is not None and facts.made is not None:
        # the check runs the lines that make the jitted object, not the call reported
        check["line"], check["end_line"] = facts.made["line"], facts.made["end_line"]
    rule = RULES_BY_CODE.get(finding.code)
    prevents = rule.prevents if rule is not None else None
    if prevents is None or prevents.kind == "none":
        return _none(check, f"no dynamic check for {finding.code}")
    if facts is None:
        return _none(check, "the finding carries no facts to plan a check from")
    if facts.api is not None:
        # The claim is about JAX, not about the module: look the name up in the installed JAX.
        api = facts.api
        return _planned(check, "jax_api", name=api.get("old_api"), deprecated_in=api.get("deprecated_in"), removed_in=api.get("removed_in"))
    if prevents.errors:
        check["expect"] = expected_errors(prevents)
    kind = prevents.kind
    if kind == "raises" and prevents.stage == "after":
        # Tracing succeeds; the error comes later, when something the trace leaked is used.
        # A trace check would refute a true finding.
        return _none(check, f"{finding.code}'s error comes when the leaked value is used after the trace, which no dynamic check drives yet")
    if kind == "raises" and prevents.stage == "call" and prevents.at == "use" and facts.jitted is None and facts.instance is not None:
        return _plan_instances(check, facts)
    if kind == "stale":
        return _plan_stale(check, facts)
    if kind == "raises" and prevents.stage == "call":
        if facts.value_kind is not None and (
            facts.jitted is None or facts.jitted.get("filtered") or facts.value_kind in _NO_STAND_IN
        ):
            return _plan_host_path(check, facts)
        if facts.jitted is None and facts.host is not None:
            return _plan_host_run(check, facts, at_use=prevents.at == "use")
        return _plan_static(check, facts)
    if kind == "raises":
        drivers = []
        if facts.traced is not None or facts.site is not None:
            drivers = [_driver(facts.traced, "jvp" if facts.traced.get("differentiated") else "jaxpr")] if facts.traced else []
            if facts.site is not None:
                drivers.append(_driver(facts.site, "call"))
        elif facts.entry is None:
            drivers = _traced_or_host(facts, "jaxpr")
            if facts.module_level:
                check["module_level"] = True
        if not drivers and not check.get("module_level"):
            check["reason"] = _unreachable(facts)
        return _planned(check, "trace", drivers=drivers)
    if kind == "frozen" and prevents.observe == "capture":
        _planned(check, "capture", var=facts.variable or "", drivers=[_driver(facts.traced, "jaxpr")] if facts.traced is not None else [], in_entry=bool(facts.in_entry))
        if facts.traced is None and facts.nested is not None and _runs_with_the_modules_arguments(facts.nested["runner"]):
            # made and called inside a function that returns nothing: run that function
            return _planned(check, "capture", drivers=[_driver(facts.nested["runner"], "call")], nested=facts.nested)
        if facts.traced is None:
            check["reason"] = _unreachable(facts)
        return check  # type: ignore[return-value]
    if kind == "frozen":
        if facts.traced is None:
            return _planned(check, "effect", drivers=[], reason=_unreachable(facts))
        return _planned(check, "effect", drivers=[_driver(facts.traced, "jit")])
    if kind == "recompiles":
        if facts.convention is not None:
            return _plan_convention(check, facts)
        if facts.rebuild is not None:
            return _plan_rebuild(check, facts)
        if facts.call is not None and "start" in facts.call:
            return _plan_fed_back(check, facts)
        return _plan_retrace(check, facts)
    if kind == "wrong-result" and prevents.observe in ("unchanged", "formatted-tracer"):
        if prevents.observe == "unchanged":
            if not facts.variable:
                return _none(check, "the finding names no variable to watch")
            check["var"] = facts.variable
        if facts.entry is not None and facts.traced is None:
            return _none(check, _unreachable(facts))
        check["drivers"] = _traced_or_host(facts, "jaxpr")
        if not check["drivers"]:
            reason = f"line {finding.line} is not inside a function: importing the module ran it" if facts.module_level else NO_ENTRY
            return _none(check, reason)
        return _planned(check, prevents.observe)
    return _none(check, f"no dynamic check for {finding.code}")


# Value kinds no stand-in value shows (the module's own class, equinox's own hashing, a
# function where the code keeps it: in a NamedTuple's field).
_NO_STAND_IN = ("instance", "tuple", "optimiser state", "function")


def _plan_host_path(check: dict, facts: FindingFacts) -> Check:
    """A value that reaches a static slot along a path (a wrapper, a factory,
    ``functools.partial``, a transform over the jitted function, a static ``self``), or one no
    stand-in can show: run the code that builds it and expect JAX's error on the finding's
    line.  In traced code that is the traced entry point; in host code the module-level
    function where the value is built."""
    if facts.traced is not None:
        drivers = [_driver(facts.traced, "jaxpr")]
    elif facts.builder is not None:
        drivers = [_driver(facts.builder, "call")]
    elif facts.host is not None:
        # the function around the call needs arguments: only those the module passes it (its
        # driver code's, run up to the call, or a call of it without guesses) can show the path
        drivers = [_driver(facts.host, "call", module_arguments_only=True)]
    else:
        return _none(check, "could not find code that builds the value without guessing its arguments")
    return _planned(check, "trace", drivers=drivers)


def _plan_host_run(check: dict, facts: FindingFacts, at_use: bool) -> Check:
    """No jitted signature to stub (the error is not about a jitted function's parameters: a
    Flax module's attribute, a method's ``self``): run the code around the finding with the
    module's own arguments and expect the error.  A constructor runs by building its class as
    the module's code does."""
    host = facts.host or {}
    if host["target"].get("method") and host["target"].get("qualname") == "__init__":
        # ``at_use``: the error comes where the object is used (when the constructor returns):
        # the lines must have run, the error need not come from them
        return _planned(check, "construct", cls=host["target"]["cls"], ctors=list(host["target"].get("ctors") or []), at_use=at_use)
    return _planned(check, "trace", drivers=[_driver(host, "call", module_arguments_only=True)])


def _plan_instances(check: dict, facts: FindingFacts) -> Check:
    """What fails where an instance of the class reaches a jitted function (an array in its
    static metadata): build two instances the way the module does and pass each to one."""
    instance = facts.instance or {}
    if not instance.get("ctors"):
        return _none(check, f"could not find a construction of {instance.get('cls')} whose arguments are simple values")
    return _planned(check, "pytree_arg", cls=instance["cls"], attr=instance["attr"], ctors=instance["ctors"])


def _plan_stale(check: dict, facts: FindingFacts) -> Check:
    """Run the code around the first call of the jitted function, as it is, with that
    function's calls recorded: does a call after the change reuse the old compiled function?"""
    related = facts.related_call
    if related is None:
        return _none(check, "the finding names no call of a jitted function that the change follows")
    if related.get("callee") is None:
        return _none(check, related["why"])
    if not facts.attribute:
        return _none(check, "the finding names no attribute that changes")
    _planned(check, "stale", watched=related["callee"], attribute=facts.attribute, call_line=related.get("line"))
    if related.get("main"):
        # the script's __main__ block makes the calls: it runs, past the change
        return _planned(check, "stale", main_lines=list(related.get("lines") or []), drivers=[])
    runner = related["runner"]
    # A method changes its own object for its next run (``self.weight = ...`` after
    # ``self.predict(x)``): it runs twice on one instance.
    return _planned(check, "stale", drivers=[_driver(runner, "call")], repeat=bool(runner["target"].get("method")))


def _plan_static(check: dict, facts: FindingFacts) -> Check:
    """Apply ``jax.jit`` with the function's static spec to a stub of its signature, and call it
    when the finding is about a value passed (or a parameter declared static)."""
    sig = facts.jitted
    if sig is None:
        return _none(check, "could not find the jitted function behind this finding")
    params = sig["params"]
    call = facts.call
    if call is not None:
        values = call.get("values") or {}
        keywords = set(call.get("keywords") or ())
        args = []
        for p in params:
            name = p["name"]
            if name not in values and p["has_default"]:
                continue
            v = values.get(name)
            if name == facts.parameter and (facts.value_kind is not None or v is None):
                v = _unhashable_value(facts.value_kind)  # the kind of value the engine saw passed
            elif v is None:
                v = py("3") if p["static"] else arr(())
            args.append(_arg(p, v, keywords))
    elif facts.parameter is not None:
        # an array for the static parameter: jax.jit hashes it on the call
        args = [_arg(p, arr((SIZE,)) if p["static"] else arr(())) for p in params if not p["has_default"] or p["static"]]
    else:
        args = None  # applying jax.jit is enough
    return _planned(check, "static", stub=sig["stub"], spec=sig["spec"], args=args)


def _arg(p, value: Value, keywords=()) -> dict:
    """A parameter of the jitted signature with its value, passed by keyword where the call does."""
    kind = "kw" if p["name"] in keywords and p["kind"] != "posonly" else p["kind"]
    return {"name": p["name"], "kind": kind, "static": p["static"], "value": value}


def _unhashable_value(kind: Optional[str]) -> Value:
    if kind == "array":
        return {"k": "expr", "src": "jax.numpy.ones((3,))"}
    return py(_UNHASHABLE_EXAMPLES.get(kind or "", "[1, 2]"))


def _plan_retrace(check: dict, facts: FindingFacts) -> Check:
    """Call the jitted function with the values the argument takes over the loop, counting
    traces and compilations."""
    call = facts.call
    if call is None and _forwarded(facts):
        # The function around the finding runs as it is, and each call of the jitted callable
        # made while the finding's line runs, however deep, is counted.  The values may repeat
        # (full batches, then a short one): one more compilation is the finding.
        return _host_calls(check, facts, facts.related_call["callee"], check["line"], every=False)
    if call is None and facts.related_call is not None and facts.related_call.get("callee") is None:
        return _none(check, facts.related_call["why"])
    if call is None or facts.parameter is None:
        return _none(check, "the finding points at no argument of a jitted call")
    loop = call.get("loop")
    static = any(p["name"] == facts.parameter and p["static"] for p in (facts.jitted or {}).get("params", ()))
    changes_value = loop is not None and (loop.get("direct") or static)
    stand_ins = loop is not None and not loop.get("values_known", True)
    if (loop is None or (stand_ins and not changes_value)) and facts.host is not None and call.get("callee") is not None:
        # The values are not the loop variable's own (``lr = lr * 0.9``, a growing array), or
        # distinct ints in place of the loop's would say nothing about the shapes it makes (a
        # short last batch): the code around the call runs as it is.  A value that changes
        # from one iteration to the next must compile on every call; one the loop variable
        # builds may repeat (full batches, then a short one); a result passed back in the
        # argument's place (a weak-type flip) compiles once more, not on every call.
        return _plan_host_calls(check, facts, every=loop is None and not call.get("fed_back"))
    if loop is None:
        return _none(check, "the argument does not change with a loop around the call")
    values = loop.get("values") or []
    if not values:
        return _none(check, "could not build the argument's values over the loop")
    if len(values) < 2:
        return _none(check, "the loop runs fewer than two times")
    if call.get("callee") is None:
        return _none(check, NO_ENTRY)
    pname = facts.parameter
    d = _driver(call["callee"], "jit", cached=True)  # prefer the user's own jitted object
    d["guessed"] = [g for g in d.get("guessed") or [] if g != pname] + [g for g in loop.get("guessed") or [] if g not in (d.get("guessed") or [])]
    where = loop.get("from") or ""
    return _planned(
        check,
        "retrace",
        drivers=[d],
        param=pname,
        values=values,
        # the loop variable itself (or a static parameter) changes the value; an expression of
        # it (`x[:i]`, `jnp.zeros(i)`) the shape
        changes="value" if static or loop.get("direct") else "shape",
        values_from=where if loop.get("var") == pname else f"{where} of `{loop.get('var')}`",
        values_known=bool(loop.get("values_known", True)),
    )


def _plan_host_calls(check: dict, facts: FindingFacts, every: bool) -> Check:
    """Run the module-level function around the call, counting the traces and compilations of
    each call the finding's line makes (``every``: each call after the first must compile)."""
    call = facts.call or {}
    return _host_calls(check, facts, call["callee"], call.get("line"), every)


def _host_calls(check: dict, facts: FindingFacts, watched, call_line, every: bool) -> Check:
    drivers = [_driver(facts.host, "call")]
    return _planned(check, "host_calls", drivers=drivers, watched=watched, param=facts.parameter, call_line=call_line, every=every)


def _plan_convention(check: dict, facts: FindingFacts) -> Check:
    """Run the function around the two calls as it is, recording the jitted callable's calls:
    the finding's call is made again with its own values, passing the parameter the other way
    first, and JAX's cache is watched."""
    convention = facts.convention or {}
    if facts.host is None:
        return _none(check, "the calls are not inside a module-level function the check can run")
    if convention.get("elsewhere"):
        check["elsewhere"] = convention["elsewhere"]
    drivers = [_driver(facts.host, "call")]
    return _planned(check, "convention", drivers=drivers, watched=convention["callee"], param=convention["param"], by_keyword=convention["by_keyword"])


def _forwarded(facts: FindingFacts) -> bool:
    """The finding is a call of a wrapper (a forwarding function, a method, ``__call__``, a
    partial) that reaches a jitted callable (a related location is that callable's call,
    inside the wrapper), in a module-level function."""
    related = facts.related_call
    return related is not None and related.get("callee") is not None and facts.host is not None


def _plan_fed_back(check: dict, facts: FindingFacts) -> Check:
    """Call the jitted function with the value the argument starts as, then with the first
    call's result in its place, counting traces and compilations."""
    call = facts.call or {}
    if facts.parameter is None:
        return _none(check, "the finding points at no argument of a jitted call")
    if call.get("callee") is None:
        return _none(check, NO_ENTRY)
    pname = facts.parameter
    d = _driver(call["callee"], "jit", cached=True)  # the user's own jitted object
    d["guessed"] = []  # the one argument set below holds no guess
    first, unknown = _first_pass_argset(facts, call, pname)
    if first is None and _runs_with_the_modules_arguments(facts.host):
        # The other arguments come from what the module passes the function around the loop
        # (``batches[i]`` of its caller's array): run it as it is; one more compilation, for
        # the result in the argument's place, is the finding.
        return _plan_host_calls(check, facts, every=False)
    if first is None:
        # A guessed array is strongly typed float32: it can make the result strong (or keep it
        # weak) where the module's own argument would not, so neither verdict could stand on it.
        what = ", ".join(f"`{n}`" for n in unknown) or "the arguments"
        return _none(check, f"could not build {what} of the call at line {call.get('line')} without guessing its dtype")
    d["argsets"] = [first]
    return _planned(
        check, "retrace", drivers=[d], param=pname, values=[call["start"]], fed_back=True, result_part=call.get("result_part"), call_line=call.get("line")
    )


def _runs_with_the_modules_arguments(host) -> bool:
    """A callable some argument set of which holds no guess."""
    return host is not None and any(not a["source"].endswith("guesses") for a in host.get("argsets") or ())


def _first_pass_argset(facts: FindingFacts, call, pname: str):
    """The call's own arguments on the first pass of its loop (the loop's first values for what
    the loop variable builds), when none is a guess; else None and the parameters only a guess
    could fill."""
    passed = call.get("values") or {}
    first = call.get("first_values") or {}
    keywords = set(call.get("keywords") or ())
    args = []
    unknown = []
    for p in (facts.jitted or {}).get("params", ()):
        name = p["name"]
        if name == pname:
            v = call["start"]
        elif name in first:
            v = first[name]
        elif passed.get(name) is not None:
            v = passed[name]
        elif name not in passed and p["has_default"]:
            v = {"k": "omit"}
        else:
            unknown.append(name)
            continue
        args.append(_arg(p, v, keywords))
    if unknown or not args:
        return None, unknown
    return {"source": f"call at line {call.get('line')}", "args": args}, []


def _plan_rebuild(check: dict, facts: FindingFacts) -> Check:
    """Build the function twice from its source (in the module's globals), jit and call each."""
    rebuild = facts.rebuild or {}
    # the function around the jax.jit, then the one whose loop runs it again and again
    runners = [d for d in (facts.host, facts.repeater) if _runs_with_the_modules_arguments(d)]
    if rebuild.get("reason") and runners:
        # What is jitted cannot be built on its own (a ``partial``, a ``jax.grad`` result, a
        # bound method, a decorated def): the code around it runs as it is, with the jitted
        # objects recorded.
        return _planned(check, "jit_calls", drivers=[_driver(d, "call") for d in runners])
    if rebuild.get("reason"):
        return _none(check, rebuild["reason"])
    keys = ("jit_kw", "what", "global", "src", "mode", "name", "src_line", "argsets", "guessed")
    return _planned(check, "fresh_jit", **{key: rebuild[key] for key in keys if key in rebuild})


def plan_checks(findings: Sequence[Finding]) -> List[Check]:
    """One check per finding, in order."""
    out: List[Check] = []
    for f in findings:
        try:
            out.append(plan_finding(f))
        except Exception as e:  # noqa: BLE001 - planning one finding must not stop the others
            out.append(_none({"code": f.code, "line": f.line, "end_line": f.end_line}, f"could not plan a check: {type(e).__name__}: {e}"))
    return out
