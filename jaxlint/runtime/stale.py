"""The opt-in check of stale values (JAX301): a jitted call compared with the same call run
eagerly under ``jax.disable_jit()``.

A jitted function reads its globals, closures and object attributes once, when it is traced;
a later call that hits the compilation cache runs the program built from what it read then.
A call whose result differs from the same function run eagerly on the same arguments returned
a value frozen at trace time.

Which calls are compared.  When a call traces, the values of the globals and closure cells
that the function (and the functions of the user's it calls by a global name) reads are noted.
A later call is run eagerly first when one of those values has been rebound since, or when it
is the first call at its call site: a first call traces with the values of now, so it cannot be
stale, and the first call that reuses a compilation is where a value frozen some other way
(NumPy's random numbers at trace time) shows.  The eager run comes first because a jitted call
may donate its arguments.  It runs the function's Python body a second time, with its effects:
that is why the check is asked for, not on by default.
"""

from __future__ import annotations

import dis
import functools
import sys
import types
from typing import Callable, Dict, List, Optional, Set, Tuple

import jax
import numpy as np

from jaxlint.runtime import effects, sites
from jaxlint.runtime.sites import Site


class StaleCheck:
    """Wraps ``jax.jit`` while installed, so that the jitted functions made from the user's
    code compare their calls; ``report(code, site, message)`` receives what differs."""

    def __init__(self, user: sites.UserCode, report: Callable[[str, Site, str], None]):
        self.user = user
        self.report = report
        self.first_hit_seen: Set[Tuple[Site, str]] = set()  # (call site, function)
        self.reported: Set[int] = set()  # the functions found stale, not checked again
        # What each function read when it was last traced, by the function: a new ``jax.jit`` of
        # the same function shares its compilations.
        self.noted: Dict[int, Tuple[object, List[_Read]]] = {}

    def install(self, undo: Callable[[Callable[[], None]], None]) -> None:
        original = jax.jit
        check = self

        @functools.wraps(original)
        def jit(fun=None, *args, **kwargs):
            if fun is None:  # jax.jit(static_argnums=...) used as a decorator factory
                return lambda f: jit(f, *args, **kwargs)
            jitted = original(fun, *args, **kwargs)
            code = getattr(getattr(fun, "__func__", fun), "__code__", None)
            if code is None or not check.user.owns(code.co_filename) or not hasattr(jitted, "_cache_size"):
                return jitted
            return _Compared(jitted, getattr(fun, "__func__", fun), check)

        jax.jit = jit
        undo(lambda: setattr(jax, "jit", original))

    def call(self, compared: "_Compared", args, kwargs):
        jitted = compared.jitted
        site = sites.stack_site(sys._getframe(2), self.user)
        if site is None or id(compared.fun) in self.reported:
            return jitted(*args, **kwargs)
        name = getattr(jitted, "__name__", "function")
        rebound = [r for r in self.noted.get(id(compared.fun), (None, []))[1] if r.rebound()]
        eager = _NOTHING
        if rebound or (site, name) not in self.first_hit_seen:
            eager = _eager(jitted, args, kwargs)
        size = jitted._cache_size()
        out = jitted(*args, **kwargs)
        if jitted._cache_size() != size:  # traced now: note what it read
            self.noted[id(compared.fun)] = (compared.fun, _reads(compared.fun, self.user))  # the function kept: its id stays its own
            return out
        self.first_hit_seen.add((site, name))
        differs = None if eager is _NOTHING else _difference(out, eager)
        if differs:
            self.reported.add(id(compared.fun))
            if rebound:
                read = rebound[0]
                message = (
                    f"`{name}` read `{read.name}` when it was traced, and `{read.name}` has been rebound since: "
                    f"the call returned {differs[0]} under jit but {differs[1]} run eagerly"
                )
                self.report("JAX301", read.site or site, message)
            else:
                message = (
                    f"`{name}` returned {differs[0]} under jit but {differs[1]} run eagerly on the same "
                    "arguments: a value it read when it was traced has changed since"
                )
                self.report("JAX301", site, message)
        return out


class _Read:
    """A global or closure cell a traced function read, with its value when it was traced."""

    def __init__(self, name: str, namespace, site: Optional[Site]):
        self.name, self.namespace, self.site = name, namespace, site
        self.value = self.current()

    def current(self):
        if isinstance(self.namespace, dict):
            return self.namespace.get(self.name, _NOTHING)
        try:
            return self.namespace.cell_contents
        except ValueError:  # an empty cell
            return _NOTHING

    def rebound(self) -> bool:
        return self.current() is not self.value


def _reads(fun, user: sites.UserCode, depth: int = 0, seen: Optional[Set[int]] = None) -> List[_Read]:
    """The globals and closure cells ``fun`` reads, and those of the functions of the user's it
    reads by those names, two calls deep (modules, classes and JAX's functions are not data)."""
    seen = set() if seen is None else seen
    code = getattr(fun, "__code__", None)
    if code is None or id(code) in seen or not user.owns(code.co_filename):
        return []
    seen.add(id(code))
    cells = dict(zip(code.co_freevars, getattr(fun, "__closure__", None) or ()))
    found: List[_Read] = []
    for inner in effects.code_objects(code):
        for ins in dis.get_instructions(inner):
            if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                namespace = fun.__globals__
            elif ins.opname in ("LOAD_DEREF", "LOAD_CLASSDEREF") and ins.argval in cells and inner is code:
                namespace = cells[ins.argval]
            else:
                continue
            read = _Read(ins.argval, namespace, sites.frame_site(inner, ins.offset, ins.starts_line or None))
            if read.value is _NOTHING or isinstance(read.value, (types.ModuleType, type)):
                continue
            found.append(read)
            if depth < 2 and isinstance(read.value, types.FunctionType):
                found.extend(_reads(read.value, user, depth + 1, seen))
    return found


def _eager(jitted, args, kwargs):
    try:
        # jit hands the function containers rebuilt from the leaves: an eager run that writes
        # into a dict it was given must not change the arguments of the jitted call after it
        args, kwargs = jax.tree_util.tree_map(lambda leaf: leaf, (args, kwargs))
        with jax.disable_jit():
            return jitted(*args, **kwargs)
    except Exception:  # the eager run cannot be compared; the call itself still runs
        return _NOTHING


_NOTHING = object()


class _Compared:
    """A jitted function whose calls the stale check sees; everything else is the jitted
    function's own (``lower``, ``trace``, ``eval_shape``, binding as a method)."""

    def __init__(self, jitted, fun, check: StaleCheck):
        self.jitted, self.fun, self.check = jitted, fun, check
        functools.update_wrapper(self, jitted)

    def __call__(self, *args, **kwargs):
        return self.check.call(self, args, kwargs)

    def __getattr__(self, name):
        return getattr(self.jitted, name)

    def __get__(self, obj, objtype=None):
        return self if obj is None else functools.partial(self, obj)


def _difference(jitted, eager) -> Optional[Tuple[str, str]]:
    """What ``jitted`` and ``eager`` hold where they differ, or None when they agree (to float
    tolerance: a compiled program may fuse and round differently)."""
    a, tree_a = jax.tree_util.tree_flatten(jitted)
    b, tree_b = jax.tree_util.tree_flatten(eager)
    if tree_a != tree_b:
        return f"a tree {tree_a}", f"a tree {tree_b}"
    for x, y in zip(a, b):
        try:
            x, y = np.asarray(x), np.asarray(y)
        except Exception:  # a leaf NumPy cannot hold: not compared
            continue
        if x.shape != y.shape:
            return f"shape {x.shape}", f"shape {y.shape}"
        try:
            same = np.allclose(x, y, rtol=1e-4, atol=1e-5, equal_nan=True) if x.dtype.kind in "fc" else np.array_equal(x, y)
        except TypeError:
            continue
        if not same:
            return _shown(x), _shown(y)
    return None


def _shown(value) -> str:
    return str(value.item()) if value.size == 1 else np.array2string(value, threshold=4, precision=4)
