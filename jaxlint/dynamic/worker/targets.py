"""Finding the function object a check runs: the Python function behind a module global, a
method, a factory's result or a function made inside another one (through decorators,
partials and closures), the instance a method is bound to, the other module that holds a
cross-module finding's entry point, and the jitted callable the module's own code calls."""

from __future__ import annotations

import functools
import inspect
import os
import types

from jaxlint.dynamic.worker import drivers
from jaxlint.dynamic.worker.imports import import_file
from jaxlint.dynamic.worker import runtime
from jaxlint.dynamic.worker.errors import Unverified, short
from jaxlint.dynamic.worker.values import built_call, constructor_args, prepare
from jaxlint.runtime.effects import code_objects


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


def watched_target(mod, check, path):
    """(raw function, class or None, label) of the jitted function a check that runs the code as
    it is watches (``check["watched"]``); Unverified when it cannot be looked up."""
    watched = check["watched"]
    raw, _obj, cls = lookup(mod, watched["target"], path)
    return raw, cls, watched["label"]


def lookup(mod, target, path):
    """(raw function, the module's own object for it, the class or None)."""
    if target.get("factory"):
        raw, obj = from_factory(mod, target, path)
        return raw, obj, None
    if target.get("made_in"):
        raw, why = made_in_stand_in(mod, target, path)
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


def made_in_stand_in(mod, target, path):
    """(a function with the code of the function ``target`` describes, or None; why not).

    A function made inside another one (``self._forward = jax.jit(lambda w, x: ...)`` in
    ``__init__``): a new function object is made on each run of the outer function, all of them
    with one code object, which the outer function's code holds as a constant.  That code is
    found without running anything; a function object built on it stands for the ones the run
    makes (the worker compares jitted functions by their code).  It is never called: its
    closure cells are empty."""
    outer = target["made_in"]
    holder = getattr(mod, outer["cls"], None) if outer.get("cls") else mod
    fn = inspect.getattr_static(holder, outer["qualname"], None) if holder is not None else None
    fn = getattr(fn, "__func__", fn)
    if not inspect.isfunction(fn) or fn.__code__.co_filename != path:
        where = f"{outer['cls']}.{outer['qualname']}" if outer.get("cls") else outer["qualname"]
        return None, f"{where}() is not defined where the module defines it after import"
    name = "<lambda>" if target.get("lambda") else target["qualname"]
    for code in code_objects(fn.__code__):
        if code.co_name == name and code.co_firstlineno == target["def_line"]:
            cells = tuple(types.CellType() for _ in code.co_freevars)
            return types.FunctionType(code, vars(mod), code.co_name, None, cells), None
    return None, f"the code of {name} on line {target['def_line']} is not in {fn.__qualname__}()"


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
            pos, kw = constructor_args(ctor)
            return cls(*pos, **kw)
        except Exception as e:  # noqa: BLE001
            err = err or e
    raise Unverified(f"could not build an instance of {cls.__name__} ({short(err)})")


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


def _unwrapped(fun):
    """``fun`` and the callables behind it, outermost first: through bound methods,
    ``functools.partial`` and ``__wrapped__`` (``jax.vmap`` and ``jax.grad`` results), at most
    twelve deep."""
    for _ in range(12):
        yield fun
        if inspect.ismethod(fun):
            fun = fun.__func__
        elif isinstance(fun, functools.partial):
            fun = fun.func
        else:
            nxt = getattr(fun, "__wrapped__", None)
            if nxt is None or nxt is fun:
                return
            fun = nxt


def nested_function(fun, name, lines, path):
    """The Python function ``name`` defined on one of ``lines`` of ``path`` behind a callable."""
    for f in _unwrapped(fun):
        if inspect.isfunction(f):
            code = f.__code__
            if code.co_filename == path and code.co_name == name and code.co_firstlineno in lines:
                return f
    return None


def underlying_code(fun):
    """The code object of the outermost Python function behind a callable; None if there is
    none."""
    for f in _unwrapped(fun):
        if inspect.isfunction(f):
            return f.__code__
    return None


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
    return runtime.jax.jit(target, **jit_statics(spec.get("nums", []), spec.get("names", []))), True


def jit_statics(nums, names):
    """Only the keywords the user gave: an explicit empty static_argnums stops JAX from
    inferring positions from static_argnames."""
    kw = {}
    if nums:
        kw["static_argnums"] = tuple(nums)
    if names:
        kw["static_argnames"] = tuple(names)
    return kw
