"""Running the user's function: one call traced to a jaxpr, under ``jax.jvp`` or plain, with the
argument set built; and the ways to run the code around a finding (each driver the worker can
resolve, with its argument sets), which the checks walk until one gives an outcome."""

from __future__ import annotations

from jaxlint.dynamic.worker import runtime
from jaxlint.dynamic.worker.errors import Unverified, guessed_note, pick_note
from jaxlint.dynamic.worker.targets import resolve_target
from jaxlint.dynamic.worker.values import assemble, built_call, prepare


def trace_once(raw, driver, argset, self_obj, how, then_set=None):
    args = argset["args"]
    if how == "jaxpr":
        statics, traced = prepare(argset, driver, abstract=True)
        if self_obj is not None and not driver.get("self_static", True):
            traced["__self__"] = self_obj

        def wrapper(tr):
            vals = {**statics, **tr}
            s = vals.pop("__self__", self_obj)
            pos, kw = assemble(args, vals)
            return raw(*([s] if s is not None else []), *pos, **kw)

        return runtime.jax.make_jaxpr(wrapper)(traced)
    if how == "jvp":
        statics, traced = prepare(argset, driver, abstract=False)

        def differentiated(tr):
            pos, kw = assemble(args, {**statics, **tr})
            return raw(*([self_obj] if self_obj is not None else []), *pos, **kw)

        tangents = runtime.jax.tree_util.tree_map(runtime.jax.numpy.zeros_like, traced)
        return runtime.jax.jvp(differentiated, (traced,), (tangents,))
    pos, kw = built_call(argset, driver)
    result = raw(*([self_obj] if self_obj is not None else []), *pos, **kw)
    if then_set is not None and callable(result):
        # a factory: call the function it returned
        p2, k2 = built_call(then_set, {})
        result(*p2, **k2)
    return result


def resolved_drivers(mod, path, check, notes, tell_guesses=True):
    """(driver, raw function, object, class, self object) for each driver of the check the worker
    can reach; why one cannot goes to ``notes``.  ``tell_guesses``: once the caller is done with
    a driver whose arguments hold a guess, put why first in ``notes`` (the most telling note
    when nothing gives an outcome)."""
    for driver in check["drivers"]:
        try:
            raw, obj, cls, self_obj = resolve_target(mod, driver, path)
        except Unverified as e:
            notes.append(str(e))
            continue
        yield driver, raw, obj, cls, self_obj
        g = guessed_note(driver) if tell_guesses else ""
        if g:
            notes.insert(0, g)


def runs_as_written(mod, path, check, notes):
    """(driver, runner, self object, argument set) for each way to run the code around the
    finding as it is: every driver the worker can resolve, with up to four of the argument
    sets the module itself passes (never guesses: a guessed array could decide what the run
    shows), JAX's caches cleared before each.  Why a driver cannot run goes to ``notes``."""
    for driver, runner, _o, _c, self_obj in resolved_drivers(mod, path, check, notes, tell_guesses=False):
        argsets = [a for a in driver["argsets"] if not a["source"].endswith("guesses")]
        if not argsets:
            notes.append(guessed_note(driver) or f"no arguments to call {driver['label']} with")
            continue
        for argset in argsets[:4]:
            runtime.jax.clear_caches()
            yield driver, runner, self_obj, argset


def run_drivers(mod, path, check, run):
    """``run(raw, driver, argset, self_obj)`` for each driver and argument set until it returns
    a (status, detail); the notes of the attempts otherwise."""
    notes = []
    for driver, raw, _obj, _cls, self_obj in resolved_drivers(mod, path, check, notes):
        for argset in driver["argsets"][:8]:
            runtime.jax.clear_caches()
            outcome = run(raw, driver, argset, self_obj, notes)
            if outcome is not None:
                return outcome
    return "unverified", pick_note(notes, check)


def run_recorded(rec, mod, cls, path, runner, driver, argset, self_obj, on_object=False):
    """Run the code around the finding as it is (``runner`` called), with the interceptor
    ``rec`` installed in the module (``on_object``: in the attributes of ``self_obj`` too);
    the error the run raised, or None."""
    try:
        rec.install(mod, cls, path)
        if on_object and self_obj is not None:
            rec.install_on(self_obj, path)
        trace_once(runner, driver, argset, self_obj, "call")
    except Exception as e:  # noqa: BLE001 - the user's code may raise anything
        return e
    finally:
        rec.uninstall()
    return None


def tracing_or_calling(driver):
    return "tracing" if driver["how"] in ("jaxpr", "jvp") else "calling"
