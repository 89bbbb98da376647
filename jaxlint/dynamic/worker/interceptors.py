"""Watching the calls of jitted functions where the module's code makes and reaches them: the
stand-in for ``jax.jit`` (one, in ``Interceptor.swap_jit``) and the wrappers put in the module's
globals and classes, put back by ``uninstall``; each subclass records what one kind of check
asks of the calls (a stale result, a new trace on a line, a fresh jitted object, a rebound
captured variable)."""

from __future__ import annotations

import functools
import inspect
import weakref

from jaxlint.dynamic.worker import runtime
from jaxlint.dynamic.worker.spans import running_lines
from jaxlint.dynamic.worker.targets import nested_function, raw_function, underlying_code
from jaxlint.dynamic.worker.values import array_signature, same_result, signature


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
            else:
                rebuilt = self._rebuilt_partial(val, path)
                if rebuilt is not None:
                    self._set(mod, key, rebuilt)
        if cls is not None:
            for klass in [cls] + [c for c in vars(mod).values() if isinstance(c, type) and issubclass(c, cls) and c is not cls]:
                val = klass.__dict__.get(name)
                if val is not None and val is not self.raw and not isinstance(val, (staticmethod, classmethod)) and callable(val):
                    self._set(klass, name, self.wrap(val))
        self.swap_jit(mod, self._made)

    def install_on(self, obj, path):
        """The partials of the watched callable an object made before ``install`` holds in
        its attributes (``self.smooth = partial(decay, rate=rate)`` in ``__init__``), rebuilt
        like the module's."""
        attrs = getattr(obj, "__dict__", None)
        if not isinstance(attrs, dict):
            return
        for key, val in list(attrs.items()):
            rebuilt = self._rebuilt_partial(val, path)
            if rebuilt is not None:
                try:
                    self._set(obj, key, rebuilt)
                except Exception:  # noqa: BLE001 - a frozen object refuses the write
                    self._restore.pop()

    def _rebuilt_partial(self, val, path):
        """``functools.partial(jitted, *args, **keywords)`` (or a ``jax.tree_util.Partial``,
        a subclass that binds the same way) made again around the recording wrapper: a call of
        the partial then reaches ``record`` with the arguments the partial binds, positional
        and keyword, as JAX receives them.  None for anything else."""
        if type(val) not in (functools.partial, runtime.jax.tree_util.Partial) or self.raw is None:
            return None
        try:
            jitted = callable(val.func) and raw_function(val.func, self.raw.__name__, path) is self.raw
        except Exception:  # noqa: BLE001 - an attribute of a user object may raise
            jitted = False
        if not jitted:
            return None
        return type(val)(self.wrap(val.func), *val.args, **val.keywords)

    def _made(self, fun, made):
        """What ``jax.jit`` of ``fun`` gives the module's code while installed: what JAX made,
        through ``record`` when it is the watched function's."""
        return self.wrap(made, getattr(fun, "__self__", None)) if self._jitted_by_raw(fun) else made

    def swap_jit(self, mod, then):
        """Put a stand-in for ``jax.jit`` in its place until ``uninstall`` -- in JAX, and in the
        globals of ``mod`` (None: none) that hold it (``from jax import jit``) -- which jits as
        JAX does and returns ``then(the function, what JAX made of it)``."""
        real_jit = runtime.jax.jit

        def jit(fun=None, *a, **k):
            if fun is None:  # ``jax.jit(static_argnums=...)`` as a decorator
                return lambda f: jit(f, *a, **k)
            return then(fun, real_jit(fun, *a, **k))

        self._set(runtime.jax, "jit", jit)
        for key, val in list(vars(mod).items()) if mod is not None else ():
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

    def verdict(self, changed, label, where, key="mine"):
        """(status, detail) when the calls after the change decide the finding, else None:
        a cached call that returned another result than the function run eagerly confirms it;
        a new trace for arguments already compiled for refutes it.  ``changed`` says what
        changed, ``where`` which run made the calls, ``key`` which flag marks the calls made
        after the change."""
        mine = [c for c in self.calls if c[key]]
        if any(not c["traced"] and c["stale"] for c in mine):
            return "confirmed", (
                f"after {changed}, {label} reused the function compiled before and returned another result "
                f"than the function run eagerly ({where})"
            )
        if any(c["traced"] and c["same_args"] for c in mine):
            return "refuted", f"after {changed}, {label} traced again for arguments it had compiled for ({where})"
        return None


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
        result, traces, _ = self.counts.call(real, args, kw)
        if not changed:
            self.before += 1
            self.signatures.add(array_signature(args, kw))
            return result
        self._busy = True
        try:
            with runtime.jax.disable_jit():
                fresh = real(*args, **kw)
        except Exception:  # noqa: BLE001 - the eager run is only a comparison
            fresh = result
        finally:
            self._busy = False
        self.calls.append(
            {
                "traced": traces > 0,
                "mine": self._passes(args, kw, bound),
                "stale": not same_result(result, fresh),
                # a new trace for arguments of shapes seen before the change: not a new shape's
                "same_args": array_signature(args, kw) in self.signatures,
            }
        )
        return result


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
        self.swap_jit(mod, self._made)

    def _made(self, fun, made):
        if not running_lines(self.path, self.first, self.last):
            return made
        # No reference to the jitted object is kept: JAX drops a cache entry with the
        # callable it was made for, and an object kept alive would change what it reuses.
        entry = {"calls": []}
        self.made.append(entry)
        code = underlying_code(fun)
        if code is not None:
            self.counts.codes.add(code)

        def called(*args, **kw):
            result, traces, compiles = self.counts.call(made, args, kw)
            entry["calls"].append((traces, compiles, signature(args, kw)))
            if "program" not in entry:
                try:
                    entry["program"] = made.lower(*args, **kw).as_text()
                except Exception:  # noqa: BLE001 - not every jitted object lowers
                    entry["program"] = None
            return result

        called.__wrapped__ = made
        return called


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
        result, traces, compiles = self.counts.call(real, args, kw)
        try:
            # a weak reference: a jitted object kept alive would keep its cache entry too
            ref = weakref.ref(real)
        except TypeError:
            ref = lambda: real  # noqa: E731 - a callable that supports no weak reference
        # the last one called stays alive, to repeat its call as the control: a jitted object
        # made in an instance or a closure of the run dies with it
        self.last_called = real
        self.calls.append((traces, compiles, ref, args, kw))
        return result


class NestedCalls(Interceptor):
    """Wraps what ``jax.jit`` returns for the nested function while the outer one runs, and
    records each call that does not trace: whether the captured variable was rebound since the
    last trace, and whether the result is what the function gives run eagerly."""

    def __init__(self, counts, path, nested, var):
        super().__init__(None, counts)
        self.path = path
        self.name = nested["name"]
        self.lines = set(nested["lines"])
        self.var = var
        self.calls = []  # {"traced", "changed", "stale", "same_args"}
        self.made = 0
        self.seen = {}  # code of the nested def -> [(the variable's value, arguments) at each trace]

    def __enter__(self):
        self.swap_jit(None, self._made)
        return self

    def __exit__(self, *exc):
        self.uninstall()
        return False

    def _made(self, fun, made):
        inner = nested_function(fun, self.name, self.lines, self.path)
        code = inner.__code__ if inner is not None else None
        if code is None or self.var not in code.co_freevars:
            return made
        cell = inner.__closure__[code.co_freevars.index(self.var)]
        self.counts.codes.add(code)
        self.made += 1
        # the variable's value at the last trace of this def, by any jitted object of it
        # (JAX's cache is the function's: jax.jit of it again reuses the trace; a def run
        # again makes a new function, whose trace sees the new value)
        seen = self.seen.setdefault(code, [])

        def called(*args, **kw):
            before = cell.cell_contents
            sig = array_signature(args, kw)
            result, traces, _ = self.counts.call(made, args, kw)
            traced = traces > 0
            changed = bool(seen) and not (before is seen[-1][0] or same_result(before, seen[-1][0]))
            if traced:
                if changed:
                    same = any(sig == s for _v, s in seen)
                    self.calls.append({"traced": True, "changed": True, "stale": False, "same_args": same})
                seen.append((before, sig))
                return result
            stale = False
            if changed:
                try:
                    with runtime.jax.disable_jit():
                        stale = not same_result(result, made(*args, **kw))
                except Exception:  # noqa: BLE001 - the eager run is only a comparison
                    stale = False
            self.calls.append({"traced": False, "changed": changed, "stale": stale})
            return result

        called.__wrapped__ = made
        return called
