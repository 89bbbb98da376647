"""Static arguments: ``jax.jit`` applied to a stub of the signature with the static spec (and the
call, for an unhashable value), and a pytree's static metadata compared between two instances
passed to one jitted function (JAX206)."""

from __future__ import annotations

import functools

from jaxlint.dynamic.worker import runtime
from jaxlint.dynamic.worker.errors import expected_error, pick_note, short
from jaxlint.dynamic.worker.targets import jit_statics
from jaxlint.dynamic.worker.values import built_call, constructor_args


def check_static(mod, path, check):
    ns = {}
    exec(compile(check["stub"], "<jaxlint stub>", "exec"), ns)  # noqa: S102 - a signature we generated
    stub = next(v for k, v in ns.items() if callable(v) and not k.startswith("__"))
    spec = check["spec"]
    try:
        jitted = runtime.jax.jit(stub, **jit_statics(spec["nums"], spec["names"]))
        if check.get("args") is not None:
            pos, kw = built_call({"args": check["args"]}, {})
            jitted(*pos, **kw)
    except Exception as e:  # noqa: BLE001 - any other error leaves the finding unverified
        if expected_error(e, check.get("expect")):
            return "confirmed", short(e)
        return "unverified", f"jax.jit raised another error: {short(e)}"
    if check.get("args") is None:
        return "refuted", "jax.jit accepted the static argument spec"
    return "refuted", "jax.jit accepted the call"


def _leaves(tree):
    return runtime.jax.tree_util.tree_leaves(tree)


def _truth_error(a, b):
    """The error ``bool(a == b)`` raises (what JAX's metadata comparison meets), or None."""
    try:
        bool(a == b)
    except Exception as e:  # noqa: BLE001 - an array's comparison has no truth value
        return e
    return None


def check_pytree_arg(mod, path, check):
    """JAX206: two instances built by the same construction, passed in turn to one jitted
    function; the second call compares the treedefs' metadata with the first's."""
    cls = getattr(mod, check["cls"], None)
    if not isinstance(cls, type):
        return "unverified", f"{check['cls']} is not a class after import"
    attr = check["attr"]
    notes = []
    accepted = []
    for ctor in check["ctors"]:
        shown = f"{check['cls']}(...) at line {ctor.get('line')}"
        try:
            first, second = (cls(*pos, **kw) for pos, kw in (constructor_args(ctor) for _ in range(2)))
        except Exception as e:  # noqa: BLE001 - the user's constructor may raise anything
            notes.append(f"building {shown} failed: {short(e)}")
            continue
        mine, theirs = getattr(first, attr, None), getattr(second, attr, None)
        if mine is not None and mine is theirs and _truth_error(mine, mine) is not None:
            # JAX compares the metadata as tuples, which take one object as equal to itself:
            # the two instances say nothing about two different arrays.
            notes.append(f"both instances built by {shown} share one `{attr}` array")
            continue
        runtime.jax.clear_caches()  # a cache entry of an earlier check would be compared with
        jitted = runtime.jax.jit(functools.partial(_leaves))
        try:
            jitted(first)
        except Exception as e:  # noqa: BLE001
            notes.append(f"calling a jitted function with {shown} failed: {short(e)}")
            continue
        try:
            jitted(second)
        except Exception as e:  # noqa: BLE001
            if not expected_error(e, check.get("expect")):
                notes.append(f"the second call raised another error: {short(e)}")
                continue
            cause = _truth_error(mine, theirs)
            if cause is None:
                notes.append(f"the second call raised {short(e)}; `{attr}` compares with ==, so another field fails")
                continue
            return "confirmed", (
                f"a jitted function called with a second instance built by {shown} raised {short(e)} "
                f"(`{attr}` is an array of type {type(mine).__name__}: {short(cause)})"
            )
        accepted.append(shown)
    if accepted and not notes:
        return "refuted", f"a jitted function took two instances built by {accepted[0]}: their metadata compares with =="
    return "unverified", pick_note(notes, check)
