"""The worker process of ``jaxlint --dynamic``: ``python -m jaxlint.dynamic.worker PLAN OUT``.

It imports one user module (under its own name, never as ``__main__``), then carries out the
checks of the plan and appends one JSON line per event to OUT, so that whatever it finished
before a hang or a crash is kept.  This is the only part of jaxlint that imports JAX or user
code; of jaxlint it imports only its own helpers in this package, which use the standard library.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import inspect
import io
import json
import math
import os
import re
import sys
import weakref

from jaxlint.dynamic import constructions, conventions, drivers, made_in, main_block
from jaxlint.dynamic.imports import import_file

jax = None
jnp = None
np = None
MODULE = None  # the imported user module
LAST_ARGSET = None  # the argument set the running check built last


class Out:
    def __init__(self, path):
        self.fh = open(path, "a", encoding="utf-8")

    def emit(self, **obj):
        self.fh.write(json.dumps(obj) + "\n")
        self.fh.flush()


# -- which lines of the file run -------------------------------------------------------------


class SpanTracer:
    """A ``sys.settrace`` hook over the frames of one file, watching the lines ``first``..``last``
    (one span of the finding); subclasses say what they record in ``_local`` and ``_reset``."""

    def __init__(self, path, first, last):
        self.path = path
        self.first = first
        self.last = last

    def _global(self, frame, event, arg):
        if frame.f_code.co_filename != self.path:
            return None
        return self._local

    def _local(self, frame, event, arg):
        raise NotImplementedError

    def _reset(self):
        """Forget the per-frame state once tracing stops."""

    def __enter__(self):
        self._old = sys.gettrace()
        sys.settrace(self._global)
        return self

    def __exit__(self, *exc):
        sys.settrace(self._old)
        self._reset()
        return False


class LineTracker(SpanTracer):
    """Lines of one file that run, and whether a target span was left without an exception."""

    def __init__(self, path, first, last):
        super().__init__(path, first, last)
        self.hits = 0  # times a line of the span ran
        self.passed = 0  # times execution left the span without an exception
        self._last = {}
        self._exc = {}

    def _in(self, line):
        return line is not None and self.first <= line <= self.last

    def _local(self, frame, event, arg):
        if event == "line":
            line = frame.f_lineno
            prev = self._last.get(frame)
            if self._in(line):
                if not self._in(prev):
                    self.hits += 1
            elif self._in(prev) and not self._exc.get(frame):
                self.passed += 1
            self._last[frame] = line
            self._exc[frame] = False
        elif event == "exception":
            self._exc[frame] = True
        elif event == "return":
            if self._in(self._last.get(frame)) and not self._exc.get(frame):
                self.passed += 1
            self._last.pop(frame, None)
            self._exc.pop(frame, None)
        return self._local

    def _reset(self):
        self._last.clear()
        self._exc.clear()


# -- values -----------------------------------------------------------------------------------------


def build_value(spec, abstract):
    k = spec["k"]
    if k == "array":
        dtype = jnp.dtype(spec["dtype"])
        shape = tuple(spec["shape"])
        if abstract:
            return jax.ShapeDtypeStruct(shape, dtype)
        return jnp.ones(shape, dtype)
    if k == "py":
        return ast.literal_eval(spec["src"])
    if k == "ctor":
        # a pytree class defined at module level in the checked file
        cls = getattr(MODULE, spec["cls"], None)
        if not isinstance(cls, type):
            raise ValueError(f"{spec['cls']} is not a class after import")
        return cls(*[build_value(v, abstract) for v in spec["pos"]])
    if k == "captured":
        # what the module's own driver code passed (jaxlint.dynamic.drivers)
        return drivers.captured_value(spec)
    if k == "expr":
        # The engine lets through literals, jax/numpy/math calls, and the module's own globals
        # and class constructors (what the module's code would pass); nothing else.
        return eval(spec["src"], {"__builtins__": {}}, expr_namespace())  # noqa: S307
    raise ValueError(f"unknown value kind {k}")


def expr_namespace():
    ns = dict(vars(MODULE)) if MODULE is not None else {}
    ns.update({"jax": jax, "numpy": np, "math": math})
    return ns


def is_arraylike(v):
    return isinstance(v, (jax.Array, np.ndarray, np.generic, jax.ShapeDtypeStruct))


def assemble(args, values):
    """Positional prefix while nothing is omitted, keywords after that."""
    pos, kw = [], {}
    omitted = False
    for a in args:
        name = a["name"]
        if name not in values:
            omitted = True
            continue
        if a["kind"] == "posonly" or (a["kind"] == "pos" and not omitted):
            pos.append(values[name])
        else:
            kw[name] = values[name]
    return pos, kw


def file_frames(exc, path):
    """Line numbers of the frames of ``path`` in the exception's traceback (and its causes)."""
    lines = []
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == path:
                lines.append(tb.tb_lineno)
            tb = tb.tb_next
        exc = exc.__cause__ or exc.__context__
    return lines


def classes(exc):
    return [c.__name__ for c in type(exc).__mro__]


def short(exc):
    msg = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    if ". " in msg:
        msg = msg.split(". ")[0] + "."
    if len(msg) > 160:
        msg = msg[:157] + "..."
    return f"{type(exc).__name__}: {msg}" if msg else type(exc).__name__


def expected_error(exc, patterns) -> bool:
    """One of the rule's (class name, message regex) patterns matches: the class is the
    exception's or a base of it, and the regex ("" for any) is found in its message."""
    names = classes(exc)
    text = str(exc)
    return any(cls in names and (not rx or re.search(rx, text)) for cls, rx in patterns or ())


def matches(exc, check, path):
    """The exception is the expected one and was raised on the finding's lines."""
    if not expected_error(exc, check.get("expect")):
        return False
    return any(check["line"] <= ln <= check["end_line"] for ln in file_frames(exc, path))


# -- finding the function objects -----------------------------------------------------------------


class Unverified(Exception):
    pass


def raw_function(obj, name, path):
    if name is None:
        name = "<lambda>"
    for _ in range(12):
        if inspect.isfunction(obj) and obj.__code__.co_filename == path and obj.__code__.co_name == name:
            return obj
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
            continue
        nxt = getattr(obj, "__wrapped__", None)
        if nxt is None:
            nxt = getattr(obj, "__func__", None)
        if nxt is None or nxt is obj:
            break
        obj = nxt
    return None


def lookup(mod, target, path):
    """(raw function, the module's own object for it, the class or None)."""
    if target.get("factory"):
        raw, obj = from_factory(mod, target, path)
        return raw, obj, None
    if target.get("made_in"):
        raw, why = made_in.stand_in(mod, target, path)
        if raw is None:
            raise Unverified(why)
        return raw, raw, None
    name = target["qualname"]
    if target["cls"]:
        cls = getattr(mod, target["cls"], None)
        if cls is None:
            raise Unverified(f"class {target['cls']} is not defined at module level after import")
        obj = cls.__dict__.get(name)
    else:
        cls = None
        obj = getattr(mod, name, None)
    if obj is None:
        raise Unverified(f"{name}() is not defined at module level after import")
    raw = raw_function(obj, None if target.get("lambda") else name, path)
    if raw is None:
        raise Unverified(f"cannot find the Python function behind {name}")
    return raw, obj, cls


FACTORY_DEPTH = 6  # hops from the returned object: closure cells, __wrapped__, containers, attributes
FACTORY_NODES = 5000


def _children(obj):
    """Objects reachable from ``obj`` in one hop (closure cells, wrapped functions, contents)."""
    out = []
    if inspect.isfunction(obj):
        for cell in obj.__closure__ or ():
            try:
                out.append(cell.cell_contents)
            except ValueError:  # a cell not assigned yet
                pass
    elif isinstance(obj, (list, tuple, set, frozenset)):
        out.extend(obj)
        return out
    elif isinstance(obj, dict):
        out.extend(obj.values())
        return out
    elif inspect.ismethod(obj):
        out.extend([obj.__func__, obj.__self__])
        return out
    elif isinstance(obj, (staticmethod, classmethod)):
        out.append(obj.__func__)
        return out
    elif isinstance(obj, functools.partial):
        out.append(obj.func)
        out.extend(obj.args)
        out.extend(obj.keywords.values())
        return out
    wrapped = getattr(obj, "__wrapped__", None)  # functools.wraps, and jax's jitted functions
    if wrapped is not None and wrapped is not obj:
        out.append(wrapped)
    if not inspect.isfunction(obj) and not inspect.ismodule(obj) and not isinstance(obj, type):
        d = getattr(obj, "__dict__", None)
        if isinstance(d, dict):
            out.extend(d.values())
    return out


def find_nested(root, name, lines, path):
    """(the Python function, the object that wraps it) for the def ``name`` starting on one of
    ``lines`` of ``path``, searched breadth-first from ``root``; None when it is not there."""
    frontier = [(root, None)]
    seen = set()
    for _ in range(FACTORY_DEPTH + 1):
        nxt = []
        for obj, parent in frontier:
            if id(obj) in seen or obj is None or isinstance(obj, (str, bytes, int, float, complex, bool)):
                continue
            seen.add(id(obj))
            if len(seen) > FACTORY_NODES:
                return None
            if inspect.isfunction(obj):
                code = obj.__code__
                if code.co_filename == path and code.co_name == name and code.co_firstlineno in lines:
                    return obj, (parent if parent is not None else obj)
            try:
                kids = _children(obj)
            except Exception:  # noqa: BLE001 - an attribute of user code may raise
                continue
            nxt.extend((k, obj) for k in kids)
        frontier = nxt
        if not frontier:
            break
    return None


def from_factory(mod, target, path):
    """Call the module-level factory with example arguments and find the nested function in what
    it returns (and, through closure cells, in what that refers to)."""
    fac = target["factory"]
    fname = fac["qualname"]
    want = "<lambda>" if target.get("lambda") else target["qualname"]
    shown = "the lambda" if target.get("lambda") else f"{want}()"
    factory = getattr(mod, fname, None)
    if factory is None:
        raise Unverified(f"{fname}() is not defined at module level after import")
    if not callable(factory):
        raise Unverified(f"{fname} is not callable after import")
    lines = set(fac["lines"])
    err = None
    returned = []
    for argset in fac["argsets"]:
        try:
            pos, kw = built_call(argset, {})
            result = factory(*pos, **kw)
        except Exception as e:  # noqa: BLE001 - the user's code may raise anything
            err = err or e
            continue
        hit = find_nested(result, want, lines, path)
        if hit is not None:
            return hit
        returned.append(type(result).__name__)
    if not returned:
        g = fac.get("guessed") or []
        why = f"calling {fname}() failed: {short(err)}" if err is not None else f"no arguments to call {fname}() with"
        raise Unverified(f"could not build arguments for {', '.join(g)} of {fname}() ({why})" if g else why)
    raise Unverified(
        f"{shown} is not among what {fname}() returned (a {returned[0]}) or the closures it refers to"
    )


def instance_of(cls, target):
    err = None
    for ctor in target.get("ctors") or [{"pos": [], "kw": {}}]:
        try:
            pos = [build_value(v, False) for v in ctor["pos"]]
            kw = {k: build_value(v, False) for k, v in ctor["kw"].items()}
            return cls(*pos, **kw)
        except Exception as e:  # noqa: BLE001
            err = err or e
    raise Unverified(f"could not build an instance of {cls.__name__} ({short(err)})")


# -- checks ---------------------------------------------------------------------------------------


def prepare(argset, driver, abstract):
    """(static values, traced values) by parameter name."""
    global LAST_ARGSET
    LAST_ARGSET = argset
    statics, traced = {}, {}
    for a in argset["args"]:
        v = a["value"]
        if v["k"] == "omit":
            continue
        static = a["static"]
        val = build_value(v, abstract and not static)
        if driver.get("filtered") and not is_arraylike(val):
            static = True
        (statics if static else traced)[a["name"]] = val
    return statics, traced


def trace_once(raw, driver, argset, self_obj, how, then_set=None):
    args = argset["args"]
    if how == "jaxpr":
        statics, traced = prepare(argset, driver, abstract=True)
        self_static = driver.get("self_static", True)
        if self_obj is not None and not self_static:
            traced["__self__"] = self_obj

        def wrapper(tr):
            vals = dict(statics)
            vals.update(tr)
            s = vals.pop("__self__", self_obj)
            pos, kw = assemble(args, vals)
            if s is not None:
                pos = [s] + pos
            return raw(*pos, **kw)

        return jax.make_jaxpr(wrapper)(traced)
    if how == "jvp":
        statics, traced = prepare(argset, driver, abstract=False)

        def differentiated(tr):
            vals = dict(statics)
            vals.update(tr)
            pos, kw = assemble(args, vals)
            if self_obj is not None:
                pos = [self_obj] + pos
            return raw(*pos, **kw)

        tangents = jax.tree_util.tree_map(jax.numpy.zeros_like, traced)
        return jax.jvp(differentiated, (traced,), (tangents,))
    statics, traced = prepare(argset, driver, abstract=False)
    vals = dict(statics)
    vals.update(traced)
    pos, kw = assemble(args, vals)
    if self_obj is not None:
        pos = [self_obj] + pos
    result = raw(*pos, **kw)
    if then_set is not None and callable(result):
        # a factory: call the function it returned
        st, tr = prepare(then_set, {}, abstract=False)
        vals = dict(st)
        vals.update(tr)
        p2, k2 = assemble(then_set["args"], vals)
        result(*p2, **k2)
    return result


def resolve_target(mod, driver, path):
    """(function, object, class, instance for a method or None) of a driver's target; raises
    Unverified with the reason when it cannot be reached or instantiated."""
    target = driver["target"]
    mod, path = driver_module(mod, driver, path)
    raw, obj, cls = lookup(mod, target, path)
    if "capture_notes" not in driver and (not _buildable_without_guesses(driver) or drivers.reads_driver_globals(mod, path, raw)):
        # each argument set the source shows holds a guess (or cannot be built), or the
        # function reads a global only the __main__ block defines: first the arguments the
        # module's own driver code passes, run up to the call (the block's new globals stay)
        found, notes = drivers.argsets(mod, path, driver, raw, obj)
        driver["argsets"] = found + list(driver.get("argsets") or [])
        driver["capture_notes"] = notes
    if driver.get("module_arguments_only"):
        driver["argsets"] = [a for a in driver["argsets"] if a.get("captured") or not a["source"].endswith("guesses")]
        if not driver["argsets"]:
            why = "; ".join(driver.get("capture_notes") or []) or "no code of the module calls it"
            raise Unverified(f"could not find code that builds the value without guessing the arguments of {driver['label']} ({why})")
    if target["method"] and target.get("instance_cls"):
        # the method is bound to an object of a subclass of the class that defines it
        sub = getattr(mod, target["instance_cls"], None)
        if sub is None:
            raise Unverified(f"class {target['instance_cls']} is not defined at module level after import")
        return raw, obj, cls, instance_of(sub, target)
    return raw, obj, cls, instance_of(cls, target) if target["method"] else None


def _buildable_without_guesses(driver):
    """Whether some argument set of the driver holds no guess and can be built."""
    for argset in driver.get("argsets") or []:
        if argset["source"].endswith("guesses") or argset.get("captured") or argset.get("annotated"):
            continue  # shapes read from annotations come after the module's own driver code
        try:
            prepare(argset, driver, abstract=False)
        except Exception:  # noqa: BLE001 - a global of the module missing, a constructor failing
            continue
        return True
    return False


def driver_module(mod, driver, path):
    """(module, real path) where the driver's target is defined: the checked module, or the
    other file of the run that holds the traced entry point of a cross-module finding."""
    other = driver.get("path")
    if not other or os.path.realpath(other) == path:
        return mod, path
    other = os.path.realpath(other)
    try:
        return import_file(other), other
    except SystemExit as e:
        raise Unverified(f"{os.path.basename(other)}, where its traced entry point is, called sys.exit({e.code!r}) while being imported")
    except BaseException as e:  # noqa: BLE001 - anything the module raises
        raise Unverified(f"importing {os.path.basename(other)}, where its traced entry point is, failed: {short(e)}")


def guessed_note(driver):
    g = driver.get("guessed") or []
    if not g:
        return ""
    why = "; ".join(driver.get("capture_notes") or [])
    return f"could not build arguments for {', '.join(g)}" + (f" ({why})" if why else "")


def check_trace(mod, path, check):
    notes = []
    refuted = False  # some driver traced the line without error; another may still fail there
    for driver in check["drivers"]:
        try:
            raw, _obj, cls, self_obj = resolve_target(mod, driver, path)
        except Unverified as e:
            notes.append(str(e))
            continue
        how = driver["how"]
        attempts = [(a, t) for a in driver["argsets"] for t in (driver.get("then") or [None])][:16]
        for argset, then_set in attempts:
            jax.clear_caches()
            tracker = LineTracker(path, check["line"], check["end_line"])
            err = None
            try:
                with tracker:
                    trace_once(raw, driver, argset, self_obj, how, then_set)
            except Exception as e:  # noqa: BLE001 - the user's code may raise anything
                err = e
            if err is not None and matches(err, check, path):
                return "confirmed", f"{type(err).__name__} tracing {driver['label']}"
            if err is None and tracker.passed:
                refuted = True
                break
            if err is not None:
                if any(check["line"] <= ln <= check["end_line"] for ln in file_frames(err, path)):
                    notes.append(f"line {check['line']} raised {short(err)}")
                elif tracker.passed:
                    notes.append(f"line {check['line']} traced without error, but tracing {driver['label']} then failed: {short(err)}")
                else:
                    notes.append(f"tracing {driver['label']} failed before line {check['line']}: {short(err)}")
            else:
                notes.append(f"tracing {driver['label']} did not reach line {check['line']}")
        g = guessed_note(driver)
        if g:
            notes.insert(0, g)
    if refuted:
        return "refuted", "traced without error"
    return "unverified", pick_note(notes, check)


def pick_note(notes, check):
    if not notes:
        return check.get("reason") or "no way to call the traced function"
    # the most specific note: an error raised on the line, else the first
    # (with the arguments guessed because the module's driver code did not reach the call:
    # why it did not, too)
    driver_note = next((n for n in notes if n.startswith("could not build arguments") and "did not call" in n), None)
    for n in notes:
        if n.startswith(f"line {check['line']} raised"):
            return f"{n}, with guessed arguments: {driver_note}" if driver_note else n
    return notes[0]


def variants(v):
    """Different values of the same type (and, for containers, of another length)."""
    if isinstance(v, bool):
        return [not v]
    if isinstance(v, int):
        return [v + 1]
    if isinstance(v, float):
        return [v + 1.0 if v + 1.0 != v else v * 2.0 + 1.0]
    if isinstance(v, complex):
        return [v + 1]
    if isinstance(v, str):
        return [v + "_"]
    if isinstance(v, (jax.Array, np.ndarray)):
        if v.dtype == bool:
            return [~v]
        return [v + 1]
    if isinstance(v, (list, tuple)):
        out = []
        inner = []
        for e in v:
            vs = variants(e)
            if not vs:
                inner = None
                break
            inner.append(vs[0])
        if inner is not None and v:
            out.append(type(v)(inner) if isinstance(v, list) else tuple(inner))
        if isinstance(v, list):
            out.append(v + v[-1:] if v else [1.0])
        return out
    if isinstance(v, dict):
        out = []
        new = {}
        for k, e in v.items():
            vs = variants(e)
            new[k] = vs[0] if vs else e
        if v and new != v:
            out.append(new)
        out.append({**v, "__jaxlint_extra__": 1.0})
        return out
    return []


def same_jaxpr(a, b):
    if str(a.jaxpr) != str(b.jaxpr):
        return False
    if len(a.consts) != len(b.consts):
        return False
    for x, y in zip(a.consts, b.consts):
        try:
            xa, ya = np.asarray(x), np.asarray(y)
        except Exception:  # noqa: BLE001
            if x is not y:
                return False
            continue
        if xa.shape != ya.shape or xa.dtype != ya.dtype or not np.array_equal(xa, ya):
            return False
    return True


def check_capture(mod, path, check):
    var = check.get("var")
    if var and check.get("nested") and check["drivers"]:
        return check_capture_in_run(mod, path, check)
    if not var or not check["drivers"]:
        return "unverified", check.get("reason") or "cannot tell which variable is captured"
    driver = check["drivers"][0]
    try:
        raw, _obj, cls, self_obj = resolve_target(mod, driver, path)
    except Unverified as e:
        return "unverified", str(e)
    if var in raw.__code__.co_freevars:
        cell = raw.__closure__[raw.__code__.co_freevars.index(var)]
        get, put = (lambda: cell.cell_contents), (lambda v: setattr(cell, "cell_contents", v))
        shown = f"the closure variable `{var}`"
    elif var in raw.__globals__:
        g = raw.__globals__
        get, put = (lambda: g[var]), (lambda v: g.__setitem__(var, v))
        shown = f"`{var}`"
    else:
        return "unverified", f"`{var}` is neither a module global nor a closure variable of {driver['label']}"
    fac = driver["target"].get("factory")
    built = f" (built by calling {fac['qualname']}())" if fac else ""
    try:
        get()
    except ValueError:
        return "unverified", f"{shown} of {driver['label']} has no value yet{built}"
    old = get()
    alts = [a for a in variants(old) if a is not old]
    if not alts:
        return "unverified", f"cannot make a different value of type {type(old).__name__} for `{var}`"
    notes = []
    for argset in driver["argsets"]:
        try:
            jax.clear_caches()
            first = trace_once(raw, driver, argset, self_obj, "jaxpr")
        except Exception as e:  # noqa: BLE001
            notes.append(f"tracing {driver['label']} failed: {short(e)}")
            continue
        changed = False
        try:
            for alt in alts:
                put(alt)
                jax.clear_caches()
                try:
                    second = trace_once(raw, driver, argset, self_obj, "jaxpr")
                except Exception:  # noqa: BLE001 - a different value that breaks the trace is still a dependency
                    changed = True
                    break
                if not same_jaxpr(first, second):
                    changed = True
                    break
        finally:
            put(old)
        if changed:
            return "confirmed", f"the trace of {driver['label']} changes when {shown} changes{built}"
        return "refuted", f"the trace of {driver['label']} does not depend on {shown}{built}"
    g = guessed_note(driver)
    return "unverified", g or pick_note(notes, check)


def nested_function(fun, name, lines, path):
    """The Python function ``name`` defined on one of ``lines`` of ``path`` behind a callable
    (through bound methods, ``functools.partial`` and ``__wrapped__``: ``jax.vmap`` results)."""
    for _ in range(12):
        if inspect.isfunction(fun):
            code = fun.__code__
            if code.co_filename == path and code.co_name == name and code.co_firstlineno in lines:
                return fun
        if inspect.ismethod(fun):
            fun = fun.__func__
        elif isinstance(fun, functools.partial):
            fun = fun.func
        else:
            nxt = getattr(fun, "__wrapped__", None)
            if nxt is None or nxt is fun:
                return None
            fun = nxt
    return None


class NestedCalls:
    """Wraps what ``jax.jit`` returns for the nested function while the outer one runs, and
    records each call that does not trace: whether the captured variable was rebound since the
    last trace, and whether the result is what the function gives run eagerly."""

    def __init__(self, counts, path, nested, var):
        self.counts = counts
        self.path = path
        self.name = nested["name"]
        self.lines = set(nested["lines"])
        self.var = var
        self.calls = []  # {"traced", "changed", "stale", "same_args"}
        self.made = 0
        self.seen = {}  # code of the nested def -> [(the variable's value, arguments) at each trace]
        self._saved = None

    def __enter__(self):
        real_jit = jax.jit
        rec = self

        def jit(fun=None, *a, **k):
            if fun is None:
                return lambda f: jit(f, *a, **k)
            made = real_jit(fun, *a, **k)
            inner = nested_function(fun, rec.name, rec.lines, rec.path)
            code = inner.__code__ if inner is not None else None
            if code is None or rec.var not in code.co_freevars:
                return made
            cell = inner.__closure__[code.co_freevars.index(rec.var)]
            rec.counts.codes.add(code)
            rec.made += 1
            # the variable's value at the last trace of this def, by any jitted object of it
            # (JAX's cache is the function's: jax.jit of it again reuses the trace; a def run
            # again makes a new function, whose trace sees the new value)
            seen = rec.seen.setdefault(code, [])

            def called(*args, **kw):
                before = cell.cell_contents
                sig = array_signature(args, kw)
                t0 = rec.counts.traces
                result = made(*args, **kw)
                jax.block_until_ready(result)
                traced = rec.counts.traces > t0
                changed = bool(seen) and not (before is seen[-1][0] or _same_result(before, seen[-1][0]))
                if traced:
                    if changed:
                        same = any(sig == s for _v, s in seen)
                        rec.calls.append({"traced": True, "changed": True, "stale": False, "same_args": same})
                    seen.append((before, sig))
                    return result
                stale = False
                if changed:
                    try:
                        with jax.disable_jit():
                            stale = not _same_result(result, made(*args, **kw))
                    except Exception:  # noqa: BLE001 - the eager run is only a comparison
                        stale = False
                rec.calls.append({"traced": False, "changed": changed, "stale": stale})
                return result

            called.__wrapped__ = made
            return called

        self._saved = real_jit
        jax.jit = jit
        return self

    def __exit__(self, *exc):
        jax.jit = self._saved
        return False


RUN_ITEMS = 8  # items taken from an outer function that is a generator



def runs_as_written(mod, path, check, notes):
    """(driver, runner, self object, argument set) for each way to run the code around the
    finding as it is: every driver the worker can resolve, with up to four of the argument
    sets the module itself passes (never guesses: a guessed array could decide what the run
    shows), JAX's caches cleared before each.  Why a driver cannot run goes to ``notes``."""
    for driver in check["drivers"]:
        try:
            runner, _o, _c, self_obj = resolve_target(mod, driver, path)
        except Unverified as e:
            notes.append(str(e))
            continue
        argsets = [a for a in driver["argsets"] if not a["source"].endswith("guesses")]
        if not argsets:
            notes.append(guessed_note(driver) or f"no arguments to call {driver['label']} with")
            continue
        for argset in argsets[:4]:
            jax.clear_caches()
            yield driver, runner, self_obj, argset


def check_capture_in_run(mod, path, check):
    """JAX301 in a function nested in one that returns nothing: run the outer function as it
    is (its items, for a generator) with the nested function's jitted calls recorded."""
    var = check["var"]
    nested = check["nested"]
    shown = f"jitted {nested['name']}()"
    notes = []
    for driver, runner, self_obj, argset in runs_as_written(mod, path, check, notes):
        running = f"running {driver['label']}"
        err = None
        with Counts(None) as counts, NestedCalls(counts, path, nested, var) as rec:
            try:
                result = trace_once(runner, driver, argset, self_obj, "call")
                if inspect.isgenerator(result):
                    for _ in zip(range(RUN_ITEMS), result):
                        pass
            except Exception as e:  # noqa: BLE001 - the user's code may raise anything
                err = e
        changed = [c for c in rec.calls if c["changed"]]
        if any(c["stale"] for c in changed):
            return "confirmed", (
                f"after `{var}` was rebound, {shown} reused the function compiled before and returned another "
                f"result than the function run eagerly ({running})"
            )
        if any(c["traced"] and c["same_args"] for c in changed):
            return "refuted", f"after `{var}` was rebound, {shown} traced again for arguments it had compiled for ({running})"
        why = f"; it raised {short(err)}" if err is not None else ""
        if any(c["traced"] for c in changed):
            notes.append(f"after `{var}` was rebound, {shown} traced again, for arguments of other shapes ({running})")
        elif changed:
            notes.append(f"after `{var}` was rebound, {shown} reused its compiled function, but its result is what the function gives run eagerly")
        elif not rec.made:
            notes.append(f"{running} did not jit {nested['name']}(){why}")
        else:
            notes.append(f"{running}, `{var}` was not rebound between two calls of {shown}{why}")
    return "unverified", pick_note(notes, check)


def check_effect(mod, path, check):
    notes = []
    for driver in check["drivers"]:
        try:
            raw, obj, cls, self_obj = resolve_target(mod, driver, path)
        except Unverified as e:
            notes.append(str(e))
            continue
        fn, made = jitted_callable(mod, driver, raw, obj, cls, self_obj)
        bind_self = None
        for argset in driver["argsets"]:
            counts = []
            outputs = []
            err = None
            try:
                for _ in range(2):
                    statics, traced = prepare(argset, driver, abstract=False)
                    vals = dict(statics)
                    vals.update(traced)
                    pos, kw = assemble(argset["args"], vals)
                    if bind_self is not None:
                        pos = [bind_self] + pos
                    tracker = LineTracker(path, check["line"], check["end_line"])
                    buf = io.StringIO()
                    with contextlib.redirect_stdout(buf), tracker:
                        r = fn(*pos, **kw)
                        jax.block_until_ready(r)
                    counts.append(tracker.hits)
                    outputs.append(buf.getvalue())
            except Exception as e:  # noqa: BLE001
                err = e
            if err is not None:
                notes.append(f"calling {driver['label']} failed: {short(err)}")
                continue
            if counts[0] == 0:
                notes.append(f"calling {driver['label']} did not reach line {check['line']}")
                continue
            if check["code"] == "JAX302" and not outputs[0]:
                notes.append(f"line {check['line']} printed nothing")
                continue
            if counts[1] == 0:
                if made:
                    return "confirmed", f"runs only while tracing {driver['label']} under jax.jit"
                return "confirmed", f"runs while tracing {driver['label']}, not on the cached second call"
            if not made:
                return "refuted", f"runs on every call of {driver['label']}"
            notes.append(f"line {check['line']} ran on both calls")
        g = guessed_note(driver)
        if g:
            notes.insert(0, g)
    return "unverified", pick_note(notes, check)


def jitted_callable(mod, driver, raw, obj, cls, self_obj):
    """(callable, made): the user's own jitted object when the module has one, else
    ``jax.jit(raw, <the same static spec>)``."""
    user = None
    if driver.get("cached"):
        if obj is not raw and not isinstance(obj, (staticmethod, classmethod)) and callable(obj):
            user = obj if self_obj is None else obj.__get__(self_obj, cls)
        else:
            for alias in driver.get("aliases") or []:
                cand = getattr(mod, alias, None)
                if cand is not None and callable(cand):
                    user = cand
                    break
    if user is not None:
        return user, False
    spec = driver.get("statics") or {}
    target = raw if self_obj is None else raw.__get__(self_obj, cls)
    return jax.jit(target, **jit_statics(spec.get("nums", []), spec.get("names", []))), True


# -- recompilation: counting traces and compilations -----------------------------------------------

BACKEND_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"


class Counts:
    """Traces and XLA compilations while active.

    A trace is counted each time the Python function's code object starts running (``sys.setprofile``
    "call" events): JAX runs the function once per trace and never on a cache hit.  Compilations are
    the backend-compile events of the public ``jax.monitoring`` API."""

    def __init__(self, code):
        self.codes = {code} if code is not None else set()
        self.traces = 0
        self.compiles = 0

    def _profile(self, frame, event, arg):
        if event == "call" and frame.f_code in self.codes:
            self.traces += 1

    def _event(self, event, duration, **kw):
        if event == BACKEND_COMPILE_EVENT:
            self.compiles += 1

    def __enter__(self):
        self._old = sys.getprofile()
        jax.monitoring.register_event_duration_secs_listener(self._event)
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc):
        sys.setprofile(self._old)
        jax.monitoring.unregister_event_duration_listener(self._event)
        return False


def counted_calls(code, calls):
    """(traces, compilations) each ``(fn, pos, kw)`` call adds, starting from empty caches.

    Arguments are built beforehand, so the only compilations are those of the calls."""
    jax.clear_caches()
    out = []
    with Counts(code) as c:
        for fn, pos, kw in calls:
            t, k = c.traces, c.compiles
            jax.block_until_ready(fn(*pos, **kw))
            out.append((c.traces - t, c.compiles - k))
    return out


def built_call(argset, driver, overrides=None):
    statics, traced = prepare(argset, driver, abstract=False)
    vals = dict(statics)
    vals.update(traced)
    vals.update(overrides or {})
    return assemble(argset["args"], vals)


def _times(n):
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


def check_retrace(mod, path, check):
    """JAX204: one call per value of the static parameter, plus a repeated first call as control."""
    if check.get("fed_back"):
        return check_fed_back(mod, path, check)
    driver = check["drivers"][0]
    try:
        raw, obj, cls, self_obj = resolve_target(mod, driver, path)
    except Unverified as e:
        return "unverified", str(e)
    fn, made = jitted_callable(mod, driver, raw, obj, cls, self_obj)
    name = check["param"]
    label = driver["label"] if made else f"the module's jitted {driver['label'].split(' ', 1)[-1]}"
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
                f"{_times(1 + traces)} for {len(values)} values; the same value twice compiled once"
            )
        if traces == 0 and compiles == 0:
            if check.get("changes") == "shape" and not check.get("values_known", True):
                # Distinct ints in place of the loop's unknown values (``range(0, n, bs)``) say
                # nothing about the shapes the loop really makes, such as a shorter last batch.
                return "unverified", f"{label} traced once for `{name}` over {check['values_from']} in place of the loop's own values, which are not known"
            if check.get("changes") == "shape":
                return "refuted", f"{label} traced once for `{name}` over {check['values_from']}: its shape does not change"
            return "refuted", f"{label} traced once for {check['values_from']} of `{name}`: `{name}` is not static"
        notes.append(f"{label} traced {_times(t0 + traces)} and compiled {_times(compiles + counts[0][1])} for {len(values)} values of `{name}`")
    g = guessed_note(driver)
    if g and notes:
        return "unverified", f"{g} ({notes[0]})"
    return "unverified", pick_note(notes, check)


def _replaced(pos, kw, marker, value):
    return [value if a is marker else a for a in pos], {k: value if a is marker else a for k, a in kw.items()}


def check_fed_back(mod, path, check):
    """JAX402: call the jitted function with the value the argument starts as (twice, as
    control), then with the first call's result in its place."""
    driver = check["drivers"][0]
    try:
        raw, obj, cls, self_obj = resolve_target(mod, driver, path)
    except Unverified as e:
        return "unverified", str(e)
    fn, made = jitted_callable(mod, driver, raw, obj, cls, self_obj)
    name = check["param"]
    part = check.get("result_part")
    label = driver["label"] if made else f"the module's jitted {driver['label'].split(' ', 1)[-1]}"
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
            jax.clear_caches()
            with Counts(raw.__code__) as c:
                result = fn(*pos, **kw)
                jax.block_until_ready(result)
                t0, k0 = c.traces, c.compiles
                jax.block_until_ready(fn(*again[0], **again[1]))
                t1, k1 = c.traces - t0, c.compiles - k0
                fed = result if part is None else result[part]
                pos2, kw2 = _replaced(pos2, kw2, marker, fed)
                before = c.traces, c.compiles
                jax.block_until_ready(fn(*pos2, **kw2))
                t2, k2 = c.traces - before[0], c.compiles - before[1]
        except Exception as e:  # noqa: BLE001 - the user's code may raise anything
            notes.append(f"calling {label} failed: {short(e)}")
            continue
        if t0 == 0:
            notes.append(f"calling {label} did not trace it")
            continue
        if t1 or k1:
            return "unverified", f"{label} traced again when called twice with the same arguments"
        if t2 >= 1 and k2 >= 1:
            return "confirmed", (
                f"{label} traced and compiled again when its result took the place of `{name}` = {start_src}; "
                "the same arguments twice compiled once"
            )
        if t2 == 0 and k2 == 0:
            return "refuted", f"{label} traced once when its result took the place of `{name}` = {start_src}"
        notes.append(f"{label} traced {_times(t2)} and compiled {_times(k2)} more when its result took the place of `{name}`")
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
            j1, j2 = jax.jit(first, **jit_kw), jax.jit(second, **jit_kw)
            pos, kw = built_call(argset, driver)
            counts = counted_calls(first.__code__, [(j1, pos, kw), (j1, pos, kw), (j2, pos, kw)])
        except Exception as e:  # noqa: BLE001
            notes.append(f"calling {shown} failed: {short(e)}")
            continue
        (t0, k0), (t1, k1), (t2, k2) = counts
        if t0 == 0:
            notes.append(f"calling {shown} did not trace the {what}")
            continue
        if t1 or k1:
            return "unverified", f"one {shown} called twice traced twice"
        if t2 >= 1 and k2 >= 1:
            return "confirmed", (
                f"each evaluation of {shown} traces and compiles again: the second traced {_times(t2)} "
                f"and compiled {_times(k2)} with the same arguments; one jitted object called twice compiled once"
            )
        if t2 == 0 and k2 == 0:
            return "refuted", f"evaluating {shown} twice reuses the first trace and compilation"
        notes.append(f"the second {shown} traced {_times(t2)} and compiled {_times(k2)}")
    g = check.get("guessed") or []
    if g and notes:
        return "unverified", f"could not build arguments for {', '.join(g)} ({notes[0]})"
    return "unverified", pick_note(notes, check)


def jit_statics(nums, names):
    """Only the keywords the user gave: an explicit empty static_argnums stops JAX from
    inferring positions from static_argnames."""
    kw = {}
    if nums:
        kw["static_argnums"] = tuple(nums)
    if names:
        kw["static_argnames"] = tuple(names)
    return kw


def check_static(mod, path, check):
    ns = {}
    exec(compile(check["stub"], "<jaxlint stub>", "exec"), ns)  # noqa: S102 - a signature we generated
    stub = next(v for k, v in ns.items() if callable(v) and not k.startswith("__"))
    spec = check["spec"]
    try:
        jitted = jax.jit(stub, **jit_statics(spec["nums"], spec["names"]))
        if check.get("args") is not None:
            statics, traced = prepare({"args": check["args"]}, {}, abstract=False)
            vals = dict(statics)
            vals.update(traced)
            pos, kw = assemble(check["args"], vals)
            jitted(*pos, **kw)
    except Exception as e:  # noqa: BLE001 - any other error leaves the finding unverified
        if expected_error(e, check.get("expect")):
            return "confirmed", short(e)
        return "unverified", f"jax.jit raised another error: {short(e)}"
    if check.get("args") is None:
        return "refuted", "jax.jit accepted the static argument spec"
    return "refuted", "jax.jit accepted the call"


# -- a pytree's static metadata: two instances through one jitted function ----------------------


def _leaves(tree):
    return jax.tree_util.tree_leaves(tree)


def _truth_error(a, b):
    """The error ``bool(a == b)`` raises (what JAX's metadata comparison meets), or None."""
    try:
        bool(a == b)
    except Exception as e:  # noqa: BLE001 - an array's comparison has no truth value
        return e
    return None


def _shown_ctor(cls, ctor):
    return f"{cls}(...) at line {ctor.get('line')}"


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
        shown = _shown_ctor(check["cls"], ctor)
        try:
            first, second = (
                cls(*[build_value(v, False) for v in ctor["pos"]], **{k: build_value(v, False) for k, v in ctor["kw"].items()})
                for _ in range(2)
            )
        except Exception as e:  # noqa: BLE001 - the user's constructor may raise anything
            notes.append(f"building {shown} failed: {short(e)}")
            continue
        mine, theirs = getattr(first, attr, None), getattr(second, attr, None)
        if mine is not None and mine is theirs and _truth_error(mine, mine) is not None:
            # JAX compares the metadata as tuples, which take one object as equal to itself:
            # the two instances say nothing about two different arrays.
            notes.append(f"both instances built by {shown} share one `{attr}` array")
            continue
        jax.clear_caches()  # a cache entry of an earlier check would be compared with
        jitted = jax.jit(functools.partial(_leaves))
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


# -- a static object changed between two calls: the compiled function reused -------------------


class ChangeWatch(SpanTracer):
    """The objects whose attribute the lines change: ``attribute`` (``self.gain``) read in the
    frame that runs them; ``passed`` counts the runs that left the lines without an exception."""

    def __init__(self, path, first, last, attribute):
        super().__init__(path, first, last)
        self.parts = attribute.split(".")
        self.objects = []  # (the root object, the object that owns the changed attribute)
        self.values = []  # (before, after) of the attribute
        self.passed = 0
        self._open = {}

    def _read(self, frame, parts):
        if parts[0] not in frame.f_locals:
            return None
        obj = frame.f_locals[parts[0]]
        for attr in parts[1:]:
            obj = getattr(obj, attr, None)
        return obj

    def _close(self, frame, ok):
        if frame not in self._open:
            return
        before = self._open.pop(frame)
        if ok:
            self.passed += 1
            self.values.append((before, self._read(frame, self.parts)))

    def _local(self, frame, event, arg):
        inside = frame in self._open
        if event == "line":
            here = self.first <= frame.f_lineno <= self.last
            if inside and not here:
                self._close(frame, True)
            elif here and not inside:
                root = frame.f_locals.get(self.parts[0])
                owner = self._read(frame, self.parts[:-1])
                if root is not None:
                    self.objects.append((root, owner))
                self._open[frame] = self._read(frame, self.parts)
        elif event == "exception":
            self._open.pop(frame, None)
        elif event == "return":
            self._close(frame, True)
        return self._local

    def _reset(self):
        self._open.clear()


def _same_result(a, b):
    la, ta = jax.tree_util.tree_flatten(a)
    lb, tb = jax.tree_util.tree_flatten(b)
    if ta != tb or len(la) != len(lb):
        return False
    for x, y in zip(la, lb):
        try:
            xa, ya = np.asarray(x), np.asarray(y)
        except Exception:  # noqa: BLE001
            if x != y:
                return False
            continue
        if xa.shape != ya.shape or not np.allclose(xa, ya, rtol=1e-5, atol=1e-6, equal_nan=True):
            return False
    return True


class Interceptor:
    """Wraps the jitted callable where the module's code reaches it -- a module global, a class
    attribute, and the result of ``jax.jit`` of the function while a driver runs -- so that
    each call goes through ``record(real, bound, args, kw)``; ``uninstall`` puts everything
    back."""

    def __init__(self, raw, counts):
        self.raw = raw
        self.counts = counts
        self._busy = False
        self._restore = []

    def record(self, real, bound, args, kw):
        return real(*args, **kw)

    def wrap(self, real, bound=None):
        rec = self

        def recorded(*args, **kw):
            if rec._busy:
                return real(*args, **kw)
            return rec.record(real, bound, args, kw)

        recorded.__wrapped__ = real
        return recorded

    def _jitted_by_raw(self, fun):
        # by code: a function made anew on each run of the code around it is the same function
        fun = getattr(fun, "__func__", fun)
        return fun is self.raw or (inspect.isfunction(fun) and inspect.isfunction(self.raw) and fun.__code__ is self.raw.__code__)

    def install(self, mod, cls, path):
        name = self.raw.__name__
        for key, val in list(vars(mod).items()):
            try:
                jitted = val is not self.raw and callable(val) and not isinstance(val, type) and raw_function(val, name, path) is self.raw
            except Exception:  # noqa: BLE001 - an attribute of a user object may raise
                jitted = False
            if jitted:
                self._set(mod, key, self.wrap(val))
        if cls is not None:
            for klass in [cls] + [c for c in vars(mod).values() if isinstance(c, type) and issubclass(c, cls) and c is not cls]:
                val = klass.__dict__.get(name)
                if val is not None and val is not self.raw and not isinstance(val, (staticmethod, classmethod)) and callable(val):
                    self._set(klass, name, self.wrap(val))
        real_jit = jax.jit
        rec = self

        def jit(fun=None, *a, **k):
            if fun is None:
                return lambda f: jit(f, *a, **k)
            made = real_jit(fun, *a, **k)
            return rec.wrap(made, getattr(fun, "__self__", None)) if rec._jitted_by_raw(fun) else made

        self._set(jax, "jit", jit)
        for key, val in list(vars(mod).items()):
            if val is real_jit:
                self._set(mod, key, jit)

    def _set(self, owner, key, value):
        self._restore.append((owner, key, owner.__dict__[key] if key in owner.__dict__ else None, key in owner.__dict__))
        setattr(owner, key, value)

    def uninstall(self):
        for owner, key, old, had in reversed(self._restore):
            if had:
                setattr(owner, key, old)
            else:
                delattr(owner, key)
        self._restore.clear()


class StaleRecorder(Interceptor):
    """Records, for each call made after the watched lines ran: whether it traced, whether it
    passed the changed object, and whether its result is what the function gives run eagerly
    now."""

    def __init__(self, raw, counts, watch):
        super().__init__(raw, counts)
        self.watch = watch
        self.calls = []  # after the change: {"traced", "mine", "stale", "same_args"}
        self.before = 0  # calls before the change
        self.signatures = set()  # their arguments' array signatures

    def _passes(self, args, kw, bound):
        objs = [o for pair in self.watch.objects for o in pair if o is not None]
        cands = list(args) + list(kw.values()) + ([bound] if bound is not None else [])
        for c in cands:
            if any(c is o for o in objs):
                return True
            d = getattr(c, "__dict__", None)
            if isinstance(d, dict) and any(v is o for v in d.values() for o in objs):
                return True
        return False

    def record(self, real, bound, args, kw):
        changed = self.watch.passed > 0
        t0 = self.counts.traces
        result = real(*args, **kw)
        jax.block_until_ready(result)
        if not changed:
            self.before += 1
            self.signatures.add(array_signature(args, kw))
            return result
        traced = self.counts.traces > t0
        self._busy = True
        try:
            with jax.disable_jit():
                fresh = real(*args, **kw)
        except Exception:  # noqa: BLE001 - the eager run is only a comparison
            fresh = result
        finally:
            self._busy = False
        self.calls.append(
            {
                "traced": traced,
                "mine": self._passes(args, kw, bound),
                "stale": not _same_result(result, fresh),
                # a new trace for arguments of shapes seen before the change: not a new shape's
                "same_args": array_signature(args, kw) in self.signatures,
            }
        )
        return result


def running_lines(path, first, last):
    """Whether a frame of ``path`` on the stack is running lines ``first``..``last``."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename == path and first <= frame.f_lineno <= last:
            return True
        frame = frame.f_back
    return False


def signature(args, kw):
    """What a jitted function's cache sees of its arguments, for arrays: the tree structure,
    shapes, dtypes and weak types; other leaves by type and value."""

    def leaf(v):
        if is_arraylike(v):
            return ("array", tuple(v.shape), str(v.dtype), bool(getattr(v, "weak_type", False)))
        return (type(v).__name__, repr(v))

    leaves, tree = jax.tree_util.tree_flatten((args, kw))
    return str(tree), tuple(leaf(v) for v in leaves)


def array_signature(args, kw):
    """``signature`` with other leaves by type alone: what a trace depends on besides static
    values."""
    leaves, tree = jax.tree_util.tree_flatten((args, kw))
    return str(tree), tuple(
        ("array", tuple(v.shape), str(v.dtype), bool(getattr(v, "weak_type", False))) if is_arraylike(v) else type(v).__name__
        for v in leaves
    )


def underlying_code(fun):
    """The code object of the Python function behind a callable: through bound methods,
    ``functools.partial`` and ``__wrapped__`` (``jax.grad`` results); None if there is none."""
    for _ in range(12):
        if inspect.isfunction(fun):
            return fun.__code__
        if inspect.ismethod(fun):
            fun = fun.__func__
        elif isinstance(fun, functools.partial):
            fun = fun.func
        else:
            nxt = getattr(fun, "__wrapped__", None)
            if nxt is None or nxt is fun:
                return None
            fun = nxt
    return None


class FreshJits(Interceptor):
    """Wraps what ``jax.jit`` returns while lines ``first``..``last`` of ``path`` run, and
    records the compilations of each call of each such jitted object."""

    def __init__(self, counts, path, first, last):
        super().__init__(None, counts)
        self.path = path
        self.first = first
        self.last = last
        # per jitted object: {"calls": [(traces, compilations, argument signature)], "program": its
        # lowered text for the first call's arguments}
        self.made = []

    def install(self, mod, cls=None, path=None):
        real_jit = jax.jit
        rec = self

        def jit(fun=None, *a, **k):
            if fun is None:
                return lambda f: jit(f, *a, **k)
            made = real_jit(fun, *a, **k)
            if not running_lines(rec.path, rec.first, rec.last):
                return made
            # No reference to the jitted object is kept: JAX drops a cache entry with the
            # callable it was made for, and an object kept alive would change what it reuses.
            entry = {"calls": []}
            rec.made.append(entry)
            code = underlying_code(fun)
            if code is not None:
                rec.counts.codes.add(code)

            def called(*args, **kw):
                t0, k0 = rec.counts.traces, rec.counts.compiles
                result = made(*args, **kw)
                jax.block_until_ready(result)
                entry["calls"].append((rec.counts.traces - t0, rec.counts.compiles - k0, signature(args, kw)))
                if "program" not in entry:
                    try:
                        entry["program"] = made.lower(*args, **kw).as_text()
                    except Exception:  # noqa: BLE001 - not every jitted object lowers
                        entry["program"] = None
                return result

            called.__wrapped__ = made
            return called

        self._set(jax, "jit", jit)
        for key, val in list(vars(mod).items()):
            if val is real_jit:
                self._set(mod, key, jit)


class LineCalls(Interceptor):
    """Records the traces and compilations of each call made while a frame of ``path`` runs
    lines ``first``..``last`` (the call the finding points at, however deep the call is)."""

    def __init__(self, raw, counts, path, first, last):
        super().__init__(raw, counts)
        self.path = path
        self.first = first
        self.last = last
        self.calls = []  # (traces, compilations, the callable, args, kw)
        self.last_called = None

    def record(self, real, bound, args, kw):
        if not running_lines(self.path, self.first, self.last):
            return real(*args, **kw)
        t0, k0 = self.counts.traces, self.counts.compiles
        result = real(*args, **kw)
        jax.block_until_ready(result)
        try:
            # a weak reference: a jitted object kept alive would keep its cache entry too
            ref = weakref.ref(real)
        except TypeError:
            ref = lambda: real  # noqa: E731 - a callable that supports no weak reference
        # the last one called stays alive, to repeat its call as the control: a jitted object
        # made in an instance or a closure of the run dies with it
        self.last_called = real
        self.calls.append((self.counts.traces - t0, self.counts.compiles - k0, ref, args, kw))
        return result


def _changed_values(watch):
    for before, after in watch.values:
        if isinstance(before, (int, float, str, bool)) and isinstance(after, (int, float, str, bool)) and before != after:
            return f" ({before!r} -> {after!r})"
    return ""


def check_stale(mod, path, check):
    """JAX307: run the code around the first call (a method twice on one instance) with the
    jitted function's calls recorded, and look at the calls made after the lines ran."""
    if "main_lines" in check:
        return main_block.check_stale(sys.modules[__name__], mod, path, check)
    watched = check["watched"]
    try:
        raw, _obj, cls = lookup(mod, watched["target"], path)
    except Unverified as e:
        return "unverified", str(e)
    label = watched["label"]
    attribute = check["attribute"]
    notes = []
    for driver, runner, self_obj, argset in runs_as_written(mod, path, check, notes):
        watch = ChangeWatch(path, check["line"], check["end_line"], attribute)
        err = None
        with Counts(raw.__code__) as counts:
            rec = StaleRecorder(raw, counts, watch)
            try:
                rec.install(mod, cls, path)
                with watch:
                    for _ in range(2 if check.get("repeat") else 1):
                        trace_once(runner, driver, argset, self_obj, "call")
            except Exception as e:  # noqa: BLE001 - the user's code may raise anything
                err = e
            finally:
                rec.uninstall()
        mine = [c for c in rec.calls if c["mine"]]
        changed = f"line {check['line']} changed `{attribute}`{_changed_values(watch)}"
        if any(not c["traced"] and c["stale"] for c in mine):
            return "confirmed", (
                f"after {changed}, {label} reused the function compiled before and returned another result "
                f"than the function run eagerly (running {driver['label']})"
            )
        if any(c["traced"] and c["same_args"] for c in mine):
            return "refuted", f"after {changed}, {label} traced again for arguments it had compiled for (running {driver['label']})"
        if mine and not rec.before:
            notes.append(f"running {driver['label']}, {label} was not called before {changed}")
        elif any(c["traced"] for c in mine):
            notes.append(f"after {changed}, {label} traced again, for arguments of other shapes (running {driver['label']})")
        elif mine:
            notes.append(f"after {changed}, {label} reused its compiled function, but its result is what the function gives run eagerly")
        elif not watch.passed:
            why = f" (it raised {short(err)})" if err is not None else ""
            notes.append(f"running {driver['label']} did not run line {check['line']}{why}")
        elif not rec.before:
            notes.append(f"running {driver['label']}, {label} was not called before {changed}")
        else:
            why = f" (it raised {short(err)})" if err is not None else ""
            notes.append(f"running {driver['label']}, {label} was not called with the changed object after {changed}{why}")
    return "unverified", pick_note(notes, check)


def check_host_calls(mod, path, check):
    """JAX204/JAX205/JAX401 when the loop's values are not the loop variable's: run the code
    around the call as it is, counting the traces and compilations of each call the finding's
    line makes; the last call repeated is the control."""
    watched = check["watched"]
    try:
        raw, _obj, cls = lookup(mod, watched["target"], path)
    except Unverified as e:
        return "unverified", str(e)
    label = watched["label"]
    first = min(check["line"], check.get("call_line") or check["line"])
    notes = []
    for driver, runner, self_obj, argset in runs_as_written(mod, path, check, notes):
        err = None
        with Counts(raw.__code__) as counts:
            rec = LineCalls(raw, counts, path, first, check["end_line"])
            try:
                rec.install(mod, cls, path)
                trace_once(runner, driver, argset, self_obj, "call")
            except Exception as e:  # noqa: BLE001 - the user's code may raise anything
                err = e
            finally:
                rec.uninstall()
            calls = rec.calls
            again = None
            if len(calls) >= 2:
                _t, _k, ref, args, kw = calls[-1]
                real = ref()
                t0, k0 = counts.traces, counts.compiles
                try:
                    if real is None:
                        raise Unverified("the jitted object no longer exists")
                    jax.block_until_ready(real(*args, **kw))
                    again = (counts.traces - t0, counts.compiles - k0)
                except Exception as e:  # noqa: BLE001
                    err = err or e
        running = f"running {driver['label']}"
        if len(calls) < 2:
            why = f"; it raised {short(err)}" if err is not None else ""
            notes.append(f"{running}, line {check['line']} called {label} {_times(len(calls)) if calls else 'never'}{why}")
            continue
        if again is None:
            notes.append(f"{running}, repeating the last call of {label} failed: {short(err)}")
            continue
        if again != (0, 0):
            return "unverified", f"{label} traced again when its last call was repeated with the same arguments"
        later = calls[1:]
        retraced = sum(1 for t, k, *_ in later if t and k)
        traces = sum(t for t, *_ in calls)
        compiles = sum(k for _t, k, *_ in calls)
        if retraced and check.get("every") and retraced < len(later):
            notes.append(
                f"{label} traced {_times(traces)} and compiled {_times(compiles)} for the {len(calls)} calls "
                f"line {check['line']} made ({running}): not on every call"
            )
            continue
        if retraced:
            return "confirmed", (
                f"{label} traced {_times(traces)} and compiled {_times(compiles)} for the {len(calls)} calls "
                f"line {check['line']} made ({running}); the last call repeated compiled nothing"
            )
        if all(t == 0 and k == 0 for t, k, *_ in later):
            return "refuted", f"{label} traced once for the {len(calls)} calls line {check['line']} made ({running})"
        notes.append(f"{label} traced {_times(traces)} and compiled {_times(compiles)} for the {len(calls)} calls line {check['line']} made")
    return "unverified", pick_note(notes, check)


def check_jit_calls(mod, path, check):
    """JAX401 on ``jax.jit(...)`` of an object the worker cannot rebuild: run the code around
    it as it is, with the first call of each jitted object the lines make recorded."""
    notes = []
    for driver, runner, self_obj, argset in runs_as_written(mod, path, check, notes):
        running = f"running {driver['label']}"
        err = None
        with Counts(None) as counts:
            rec = FreshJits(counts, path, check["line"], check["end_line"])
            try:
                rec.install(mod)
                trace_once(runner, driver, argset, self_obj, "call")
            except Exception as e:  # noqa: BLE001 - the user's code may raise anything
                err = e
            finally:
                rec.uninstall()
        firsts = [m["calls"][0] for m in rec.made if m["calls"]]
        if len(firsts) < 2:
            why = f"; it raised {short(err)}" if err is not None else ""
            notes.append(f"{running}, line {check['line']} made {len(firsts)} jitted object(s) that were called{why}")
            continue
        if len({sig for _t, _k, sig in firsts}) > 1:
            # other shapes or values would trace again with one jitted object too
            notes.append(f"{running}, the objects `jax.jit` made on line {check['line']} were called with different arguments")
            continue
        programs = {m.get("program") for m in rec.made if m["calls"]}
        if None in programs or len(programs) > 1:
            # a new program each time (a loop variable in the partial) is what is asked for
            what = "could not all be lowered" if None in programs else "compiled different programs"
            notes.append(f"{running}, the objects `jax.jit` made on line {check['line']} {what}")
            continue
        later = firsts[1:]
        compiled = f"compiled {_times(sum(k for _t, k, _s in firsts))}"
        counted = f"traced {_times(sum(t for t, *_ in firsts))} and {compiled}"
        if all(t for t, *_ in later):
            return "confirmed", (
                f"each of the {len(firsts)} objects `jax.jit` made on line {check['line']} traced its function again on "
                f"its first call, with arguments of the same shapes and dtypes, into the same program ({compiled}, {running})"
            )
        if not any(t or k for t, k, _s in later):
            return "refuted", f"the {len(firsts)} objects `jax.jit` made on line {check['line']} shared one trace ({running})"
        notes.append(f"the {len(firsts)} objects `jax.jit` made on line {check['line']} {counted}: not each of them")
    return "unverified", pick_note(notes, check)


def _reach_jax_name(qualified):
    """(found, DeprecationWarnings) reaching ``qualified`` as code does: import the longest
    module prefix, then the attributes."""
    import importlib
    import warnings

    parts = qualified.split(".")
    # JAX warns once per process (its module __getattr__ is functools.cache'd); forget that, so
    # that a second finding of the same name sees the warning too.
    for modname, module in list(sys.modules.items()):
        if modname == "jax" or modname.startswith("jax."):
            clear = getattr(getattr(module, "__dict__", {}).get("__getattr__"), "cache_clear", None)
            if clear is not None:
                clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = False
        for n in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:n]))
            except ImportError:
                continue
            found = True
            for attr in parts[n:]:
                try:
                    obj = getattr(obj, attr)
                except AttributeError:
                    found = False
                    break
            break
    return found, [w for w in caught if issubclass(w.category, DeprecationWarning)]


def check_jax_api(check):
    """JAX601/JAX602: the old name is absent / warns in the installed JAX."""
    import jax

    name = check.get("name")
    if not name:
        return "unverified", "the finding does not name the API"
    found, warned = _reach_jax_name(name)
    version = jax.__version__
    if check["code"] == "JAX601":
        if not found:
            return "confirmed", f"JAX {version} has no {name}"
        if warned:
            return "unverified", f"JAX {version} still has {name} (deprecated); it is removed in {check.get('removed_in')}"
        return "refuted", f"JAX {version} has {name}"
    if warned:
        return "confirmed", f"{name} warns with a DeprecationWarning in JAX {version}"
    if not found:
        return "confirmed", f"JAX {version} no longer has {name}"
    return "refuted", f"{name} does not warn in JAX {version}"


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
        return conventions.check(sys.modules[__name__], mod, path, check)
    if kind == "construct":
        return constructions.check(sys.modules[__name__], mod, path, check)
    return "unverified", check.get("reason") or "no dynamic check"


# -- wrong results: a discarded update, a string formatted from a tracer ------------------------


class Watch(SpanTracer):
    """Watches ``var`` around each run of the statement on lines ``first``..``last``: whether it
    is the same object after the statement as before it (a statement that raised is left out)."""

    def __init__(self, path, first, last, var):
        super().__init__(path, first, last)
        self.var = var
        self.runs = []  # (before, after) of each completed run
        self._open = {}  # frame -> value before the statement

    def _value(self, frame):
        parts = self.var.split(".")
        if parts[0] not in frame.f_locals:
            return None
        obj = frame.f_locals[parts[0]]
        for attr in parts[1:]:
            obj = getattr(obj, attr, None)
        return obj

    def _close(self, frame):
        if frame in self._open:
            before = self._open.pop(frame)
            self.runs.append((before, self._value(frame)))

    def _local(self, frame, event, arg):
        inside = frame in self._open
        if event == "line":
            here = self.first <= frame.f_lineno <= self.last
            if inside and not here:
                self._close(frame)
            elif here and not inside:
                self._open[frame] = self._value(frame)
        elif event == "exception":
            self._open.pop(frame, None)
        elif event == "return":
            self._close(frame)
        return self._local

    def _reset(self):
        self._open.clear()


def _run_drivers(mod, path, check, run):
    """``run(raw, driver, argset, self_obj)`` for each driver and argument set until it returns
    a (status, detail); the notes of the attempts otherwise."""
    notes = []
    for driver in check["drivers"]:
        try:
            raw, _obj, cls, self_obj = resolve_target(mod, driver, path)
        except Unverified as e:
            notes.append(str(e))
            continue
        for argset in driver["argsets"][:8]:
            jax.clear_caches()
            outcome = run(raw, driver, argset, self_obj, notes)
            if outcome is not None:
                return outcome
        g = guessed_note(driver)
        if g:
            notes.insert(0, g)
    return "unverified", pick_note(notes, check)


def _how(driver):
    return "tracing" if driver["how"] in ("jaxpr", "jvp") else "calling"


def check_unchanged(mod, path, check):
    """JAX501: the statement runs, and the variable is the same array afterwards."""
    var = check["var"]

    def run(raw, driver, argset, self_obj, notes):
        watch = Watch(path, check["line"], check["end_line"], var)
        err = None
        try:
            with watch:
                trace_once(raw, driver, argset, self_obj, driver["how"])
        except Exception as e:  # noqa: BLE001 - the user's code may raise anything
            err = e
        runs = [(b, a) for b, a in watch.runs if b is not None]
        if runs:
            before, after = runs[0]
            if not isinstance(before, (jax.Array, jax.core.Tracer)):
                # only a JAX array is sure to be immutable: another object may change in place
                return "refuted", f"`{var}` is a {type(before).__name__}, not a JAX array: line {check['line']} may change it in place"
            if after is before:
                return "confirmed", (
                    f"`{var}` is the same {type(before).__name__} after line {check['line']} ran "
                    f"({_how(driver)} {driver['label']}): the new array was discarded"
                )
            return "refuted", f"`{var}` is another object after line {check['line']} ran ({_how(driver)} {driver['label']})"
        if err is not None:
            notes.append(f"{_how(driver)} {driver['label']} failed: {short(err)}")
        else:
            notes.append(f"{_how(driver)} {driver['label']} did not run line {check['line']}")
        return None

    return _run_drivers(mod, path, check, run)


# What a tracer looks like when it is formatted into a string.
TRACER_TEXT = re.compile(r"Tracer\b|Tracer[<(\[]|Traced<")


class FormatRecorder:
    """Records the strings passed to ``jax.debug.print`` / ``jax.debug.callback`` from lines
    ``first``..``last`` of ``path`` while active (the calls still go through)."""

    def __init__(self, path, first, last):
        self.path = path
        self.first = first
        self.last = last
        self.strings = []

    def _wrap(self, fn, all_args):
        def wrapper(*args, **kwargs):
            caller = sys._getframe(1)
            if caller.f_code.co_filename == self.path and self.first <= caller.f_lineno <= self.last:
                values = list(args) + list(kwargs.values()) if all_args else list(args[:1]) + [kwargs.get("fmt")]
                self.strings.extend(v for v in values if isinstance(v, str))
            return fn(*args, **kwargs)

        return wrapper

    def __enter__(self):
        import jax.debug

        self._saved = (jax.debug.print, jax.debug.callback)
        jax.debug.print = self._wrap(self._saved[0], False)
        jax.debug.callback = self._wrap(self._saved[1], True)
        return self

    def __exit__(self, *exc):
        import jax.debug

        jax.debug.print, jax.debug.callback = self._saved
        return False


def check_formatted(mod, path, check):
    """JAX502: the string handed to jax.debug.print was formatted while tracing: it shows a
    tracer (or JAX rejects the keyword arguments it left without a placeholder)."""

    def run(raw, driver, argset, self_obj, notes):
        rec = FormatRecorder(path, check["line"], check["end_line"])
        err = None
        try:
            with rec, contextlib.redirect_stdout(io.StringIO()):
                trace_once(raw, driver, argset, self_obj, driver["how"])
        except Exception as e:  # noqa: BLE001
            err = e
        shown = [t for t in rec.strings if TRACER_TEXT.search(t)]
        if shown:
            text = shown[0] if len(shown[0]) <= 60 else shown[0][:57] + "..."
            return "confirmed", f"the string printed by line {check['line']} is {text!r} ({_how(driver)} {driver['label']})"
        if err is not None and matches(err, check, path):
            return "confirmed", f"{short(err)} ({_how(driver)} {driver['label']})"
        if rec.strings:
            return "refuted", f"the string printed by line {check['line']} shows no tracer: {rec.strings[0][:60]!r}"
        if err is not None:
            notes.append(f"{_how(driver)} {driver['label']} failed: {short(err)}")
        else:
            notes.append(f"{_how(driver)} {driver['label']} did not call jax.debug on line {check['line']}")
        return None

    return _run_drivers(mod, path, check, run)


def main(argv):
    global jax, jnp, np, MODULE
    plan_path, out_path = argv[1], argv[2]
    out = Out(out_path)
    with open(plan_path, encoding="utf-8") as fh:
        plan = json.load(fh)
    # Whatever the user's code prints must not mix with our results.
    os.dup2(2, 1)
    os.environ["JAX_PLATFORMS"] = "cpu"
    import jax as _jax
    import jax.monitoring  # noqa: F401 - compilation events
    import jax.numpy as _jnp
    import numpy as _np

    jax, jnp, np = _jax, _jnp, _np
    jax.config.update("jax_traceback_filtering", "off")
    path = os.path.realpath(plan["path"])
    out.emit(event="importing")
    try:
        # A module of a package is imported by its dotted name (its relative imports work);
        # its package's __init__ runs first, as it does for any importer.
        mod = import_file(path)
    except SystemExit as e:
        run_checks(out, None, path, plan["checks"], MODULE_FREE)
        out.emit(event="import_failed", reason=f"the module called sys.exit({e.code!r}) while being imported")
        return 0
    except BaseException as e:  # noqa: BLE001 - anything the module raises
        done = set()
        for i, check in enumerate(plan["checks"]):
            if check.get("kind") in ("trace", "static") and matches(e, check, path):
                out.emit(event="result", id=i, status="confirmed", detail=f"{type(e).__name__} while importing the module")
                done.add(i)
        run_checks(out, None, path, plan["checks"], MODULE_FREE, skip=done)
        out.emit(event="import_failed", reason=f"import failed: {short(e)}")
        return 0
    MODULE = mod
    out.emit(event="imported")
    run_checks(out, mod, path, plan["checks"])
    out.emit(event="done")
    return 0


# Checks that need nothing of the module: jax.jit applied to a stub of the signature, a name
# looked up in JAX.  They still run when the module cannot be imported.
MODULE_FREE = ("static", "jax_api")


def run_checks(out, mod, path, checks, kinds=None, skip=()):
    global LAST_ARGSET
    for i, check in enumerate(checks):
        if i in skip or (kinds is not None and check.get("kind") not in kinds):
            continue
        out.emit(event="check", id=i, label=_label(check))
        try:
            LAST_ARGSET = None
            with _values_of(mod, path, check):
                status, detail = run_check(mod, path, check)
            if status != "unverified" and LAST_ARGSET is not None and LAST_ARGSET.get("captured"):
                detail = f"{detail} (arguments from {LAST_ARGSET['source']})"
            elif status != "unverified" and LAST_ARGSET is not None and LAST_ARGSET.get("annotated"):
                detail = f"{detail} (arguments from {LAST_ARGSET['annotated']})"
        except SystemExit as e:
            status, detail = "unverified", f"the code called sys.exit({e.code!r}) during the check"
        except BaseException as e:  # noqa: BLE001
            status, detail = "unverified", f"the check failed: {short(e)}"
        out.emit(event="result", id=i, status=status, detail=detail)


@contextlib.contextmanager
def _values_of(mod, path, check):
    """Example values of a driver whose target is in another file are that module's: its
    globals and classes build them while the check runs."""
    global MODULE
    saved = MODULE
    for d in check.get("drivers") or []:
        if mod is not None and d.get("path"):
            try:
                MODULE = driver_module(mod, d, path)[0]
            except Unverified:
                pass
            break
    try:
        yield
    finally:
        MODULE = saved


def _label(check):
    for d in check.get("drivers") or []:
        return d.get("label", "")
    return check.get("code", "")


if __name__ == "__main__":
    rc = main(sys.argv)
    sys.stdout.flush()
    sys.stderr.flush()
    # Do not wait for threads the user's module may have started.
    os._exit(rc)
