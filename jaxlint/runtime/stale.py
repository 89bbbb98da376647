"""The opt-in check of stale values (JAX301): a jitted call compared with the same call run
eagerly under ``jax.disable_jit()``.

A jitted function reads its globals, closures and object attributes once, when it is traced;
a later call that hits the compilation cache runs the program built from what it read then.
A call whose result differs from the same function run eagerly on the same arguments returned
a value frozen at trace time.

Which calls are compared: at each call site of a function of the user's, calls are run eagerly
first until one of them hits the cache (the cache did not grow), and that call is compared.  A
first call traces with the values of now, so it cannot be stale; the first call that reuses a
compilation is where a changed global shows.  The eager run comes first because a jitted call
may donate its arguments.  It runs the function's Python body a second time, with its effects:
that is why the check is asked for, not on by default.
"""

from __future__ import annotations

import functools
import sys
from typing import Callable, Optional, Set, Tuple

from jaxlint.runtime import sites
from jaxlint.runtime.sites import Site


class StaleCheck:
    """Wraps ``jax.jit`` while installed, so that the jitted functions made from the user's
    code compare their calls; ``report(code, site, message)`` receives what differs."""

    def __init__(self, user: sites.UserCode, report: Callable[[str, Site, str], None]):
        self.user = user
        self.report = report
        self.done: Set[Tuple[Site, str]] = set()  # (call site, function) compared after a cache hit

    def install(self, undo: Callable[[Callable[[], None]], None]) -> None:
        import jax

        original = jax.jit
        check = self

        @functools.wraps(original)
        def jit(fun=None, *args, **kwargs):
            if fun is None:  # jax.jit(static_argnums=...) used as a decorator factory
                return lambda f: jit(f, *args, **kwargs)
            jitted = original(fun, *args, **kwargs)
            code = getattr(getattr(fun, "__func__", fun), "__code__", None)
            if code is None or not check.user.owns(code.co_filename):
                return jitted
            return _Compared(jitted, check)

        jax.jit = jit
        undo(lambda: setattr(jax, "jit", original))

    def call(self, jitted, args, kwargs):
        site = sites.stack_site(sys._getframe(2), self.user)
        name = getattr(jitted, "__name__", "function")
        if site is None or (site, name) in self.done or not hasattr(jitted, "_cache_size"):
            return jitted(*args, **kwargs)
        import jax

        try:
            with jax.disable_jit():
                eager = jitted(*args, **kwargs)
        except Exception:  # the eager run cannot be compared; the call itself still runs
            eager = _NOTHING
        size = jitted._cache_size()
        out = jitted(*args, **kwargs)
        if jitted._cache_size() == size and eager is not _NOTHING:
            self.done.add((site, name))
            differs = _difference(out, eager)
            if differs:
                message = (
                    f"`{name}` returned {differs[0]} under jit but {differs[1]} run eagerly on the same "
                    "arguments: a global, closure or attribute it read when it was traced has changed since"
                )
                self.report("JAX301", site, message)
        return out


_NOTHING = object()


class _Compared:
    """A jitted function whose calls the stale check sees; everything else is the jitted
    function's own (``lower``, ``trace``, ``eval_shape``, binding as a method)."""

    def __init__(self, jitted, check: StaleCheck):
        self._jitted, self._check = jitted, check
        functools.update_wrapper(self, jitted)

    def __call__(self, *args, **kwargs):
        return self._check.call(self._jitted, args, kwargs)

    def __getattr__(self, name):
        return getattr(self._jitted, name)

    def __get__(self, obj, objtype=None):
        return self if obj is None else functools.partial(self, obj)


def _difference(jitted, eager) -> Optional[Tuple[str, str]]:
    """What ``jitted`` and ``eager`` hold where they differ, or None when they agree (to float
    tolerance: a compiled program may fuse and round differently)."""
    import jax
    import numpy as np

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
    import numpy as np

    return str(value.item()) if value.size == 1 else np.array2string(value, threshold=4, precision=4)
