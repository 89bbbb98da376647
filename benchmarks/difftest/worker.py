"""The worker process that runs generated programs under JAX: ``python worker.py``.

It imports JAX (and equinox, flax) once, then reads one JSON request per line on standard input,
``{"id": N, "path": "/.../prog.py"}``, runs that file as ``__main__`` in a fresh namespace and
answers one JSON line on the protocol stream (the original standard output; the programs' own
output is captured).  Between programs it clears JAX's caches.  A per-program time limit is kept
with ``SIGALRM``; the parent kills and restarts a worker that does not answer in time.

What it observes, all through JAX (the definitions are in ``truth.py``):

- the exception of a failing run: its class name and the lines of the program in the traceback;
- every trace of a function the program passes to ``jax.jit``, ``eqx.filter_jit`` or ``nnx.jit``
  (the transforms are wrapped, so that the function's body counts each time JAX traces it), and
  for each call of the compiled callable the abstract signature of its arguments (shape and
  dtype of every array leaf, Python scalars as the default dtype of their kind) and the chain of
  program lines the call was made from;
- the program's output, and the lines ``print`` wrote while JAX traced a function; then, for a
  run that completed, its output under ``jax.disable_jit()``.
"""

from __future__ import annotations

import builtins
import contextlib
import functools
import io
import json
import os
import runpy
import signal
import sys
import traceback

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=1")
# What a program does under JAX (an error, a retrace, a stale value) does not depend on XLA's
# optimisation passes; without them each compilation takes about a third less time.
os.environ.setdefault("JAX_DISABLE_MOST_OPTIMIZATIONS", "true")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

try:
    import equinox as eqx  # noqa: E402
except ImportError:  # pragma: no cover
    eqx = None
try:
    from flax import nnx  # noqa: E402
    import flax.struct  # noqa: E402,F401
except ImportError:  # pragma: no cover
    nnx = None


class Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise Timeout()


class Run:
    """What one run of one program records."""

    def __init__(self, path):
        self.path = path
        self.traces = {}  # code key -> number of traces
        self.calls = []  # (code key, signature, chain, traced)
        self.created = {}  # code key -> lines where a compiled callable of it was made
        # id(function given to a jit) -> (that function, its counting wrapper).  The same
        # function always gets the same wrapper, so JAX's cache, which is keyed by the function
        # object, sees what it would see without the wrapper: ``jax.jit(kernel)(x)`` written
        # in a loop traces once.  The function is held so that its id is not reused.
        self.wrappers = {}
        # The lines ``print`` wrote while JAX was tracing (see ``_recording_print``).
        self.trace_prints = []

    def chain(self):
        """The lines of the program on the current stack, outermost first."""
        lines = []
        f = sys._getframe(1)
        while f is not None:
            if f.f_code.co_filename == self.path:
                lines.append(f.f_lineno)
            f = f.f_back
        return lines[::-1]


RUN = None
RUNS = 0
RUN_MESSAGE = [""]

try:
    from jax._src.core import trace_state_clean as _trace_state_clean
except ImportError:  # pragma: no cover - then no print counts as trace-time logging
    _trace_state_clean = None

_real_print = builtins.print


def _recording_print(*args, sep=" ", end="\n", file=None, flush=False):
    """``print``, which also records the lines it writes to standard output while JAX traces a
    function, for the run's ``trace_prints``: what ``truth.py`` calls trace-time logging."""
    run = RUN
    if run is not None and file is None and _trace_state_clean is not None and not _trace_state_clean():
        text = io.StringIO()
        _real_print(*args, sep=sep, end=end, file=text)
        run.trace_prints.extend(text.getvalue().splitlines())
    _real_print(*args, sep=sep, end=end, file=file, flush=flush)


builtins.print = _recording_print
CLEAR_EVERY = 20


def _code_of(fun):
    seen = 0
    while seen < 10:
        seen += 1
        if isinstance(fun, functools.partial):
            fun = fun.func
            continue
        inner = getattr(fun, "__wrapped__", None)
        if inner is not None:
            fun = inner
            continue
        meth = getattr(fun, "__func__", None)
        if meth is not None:
            fun = meth
            continue
        break
    return getattr(fun, "__code__", None)


def _counted(fun):
    """Whether ``fun`` is (or wraps) a function already counted: ``nnx.jit`` and
    ``eqx.filter_jit`` hand a wrapper of it to ``jax.jit``, which must not count it again."""
    for _ in range(10):
        if getattr(fun, "_difftest_counted", False):
            return True
        nxt = getattr(fun, "__wrapped__", None) or getattr(fun, "func", None)
        if nxt is None:
            return False
        fun = nxt
    return False


def _leaf_sig(leaf):
    # As JAX abstracts it: a Python scalar is a 0-d array of JAX's default dtype for its type
    # (``0`` and a weakly typed int32 array share one cache entry), and a dtype JAX does not
    # keep is the one it converts to (float64 is float32 without x64).
    if isinstance(leaf, (bool, int, float, complex)):
        return ((), str(jax.dtypes.canonicalize_dtype(type(leaf))))
    shape = getattr(leaf, "shape", None)
    dtype = getattr(leaf, "dtype", None)
    if shape is not None and dtype is not None:
        try:
            dtype = jax.dtypes.canonicalize_dtype(dtype)
        except (TypeError, ValueError):
            pass
        return (tuple(shape), str(dtype))
    return None


def signature(args, kwargs):
    """Shapes and dtypes of the array leaves of a call's arguments, as JAX abstracts them (weak
    types and Python values of static arguments are not part of it: a new one of those is an
    avoidable trace)."""
    try:
        leaves = jax.tree_util.tree_leaves((args, kwargs))
    except Exception:
        return ("?",)
    return tuple(s for s in (_leaf_sig(l) for l in leaves) if s is not None)


class Compiled:
    """A compiled callable of the program: records each call, delegates to JAX's."""

    def __init__(self, inner, key):
        self._inner = inner
        self._key = key

    def __call__(self, *args, **kwargs):
        run = RUN
        if run is None:
            return self._inner(*args, **kwargs)
        before = run.traces.get(self._key, 0)
        chain = run.chain()
        sig = signature(args, kwargs)
        try:
            return self._inner(*args, **kwargs)
        finally:
            run.calls.append((self._key, sig, chain, run.traces.get(self._key, 0) > before))

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self, obj)


def counting(real):
    """``real`` (a jit), wrapped to count the traces of program functions."""

    @functools.wraps(real)
    def transform(fun=None, *args, **kwargs):
        if fun is None:
            return lambda f: transform(f, *args, **kwargs)
        run = RUN
        code = _code_of(fun)
        if run is None or code is None or code.co_filename != run.path or _counted(fun):
            return real(fun, *args, **kwargs)
        key = f"{code.co_name}:{code.co_firstlineno}"
        run.created.setdefault(key, [])
        for line in run.chain():
            if line not in run.created[key]:
                run.created[key].append(line)

        known = run.wrappers.get(id(fun))
        if known is not None and known[0] is fun:
            return Compiled(real(known[1], *args, **kwargs), key)

        @functools.wraps(fun)
        def traced(*a, **kw):  # the body runs once per trace
            r = RUN
            if r is not None:
                r.traces[key] = r.traces.get(key, 0) + 1
            return fun(*a, **kw)

        traced._difftest_counted = True
        run.wrappers[id(fun)] = (fun, traced)
        return Compiled(real(traced, *args, **kwargs), key)

    return transform


jax.jit = counting(jax.jit)
if eqx is not None:
    eqx.filter_jit = counting(eqx.filter_jit)
if nnx is not None:
    nnx.jit = counting(nnx.jit)


@contextlib.contextmanager
def reference_semantics():
    """For the eager reference run: ``jax.checkpoint`` means its function (it caches its trace
    even under ``disable_jit``, which would hide an effect that runs once for many calls)."""
    saved = jax.checkpoint, jax.remat
    jax.checkpoint = jax.remat = _identity_transform
    try:
        yield
    finally:
        jax.checkpoint, jax.remat = saved


def _identity_transform(fun=None, **kwargs):
    if fun is None:
        return lambda f: f
    return fun


def _program_lines(tb, path):
    return [fr.lineno for fr in traceback.extract_tb(tb) if fr.filename == path]


def run_once(path, limit, eager=False, leaks=False):
    """Run the program (under ``jax.disable_jit()`` when ``eager``, under
    ``jax.checking_leaks()`` when ``leaks``); (output, error or None, lines of the error)."""
    out = io.StringIO()
    err = None
    lines = []
    settings = dict(jax.config.values)
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(limit)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            if eager:
                with jax.disable_jit(), reference_semantics():
                    runpy.run_path(path, run_name="__main__")
            elif leaks:
                with jax.checking_leaks():
                    runpy.run_path(path, run_name="__main__")
            else:
                runpy.run_path(path, run_name="__main__")
            jax.effects_barrier()
    except Timeout:
        err = "Timeout"
    except SystemExit as e:
        if e.code not in (0, None):
            err = "SystemExit"
    except BaseException as e:  # noqa: BLE001 - anything the program raises is the answer
        err = type(e).__name__
        lines = _program_lines(e.__traceback__, path)
        RUN_MESSAGE[0] = str(e)[:300]
    finally:
        signal.alarm(0)
        _restore(settings)
    return out.getvalue(), err, lines


def _restore(settings):
    """Put back JAX's settings as they were before a program ran: one that turns on 64-bit
    types (``jax.config.update("jax_enable_x64", True)``) must not change the programs run after
    it in this worker."""
    for name, value in settings.items():
        if jax.config.values.get(name) != value:
            try:
                jax.config.update(name, value)
            except Exception:  # noqa: BLE001 - a setting JAX no longer lets a program change back
                pass


def handle(req, limit):
    global RUN
    path = req["path"]
    RUN = Run(path)
    RUN_MESSAGE[0] = ""
    output, err, lines = run_once(path, limit)
    run = RUN
    RUN = None
    res = {"id": req["id"], "output": output[-2000:], "error": err, "lines": lines, "message": RUN_MESSAGE[0]}
    res["traces"] = run.traces
    res["calls"] = [[k, [list(map(str, s)) for s in sig], chain, traced] for k, sig, chain, traced in run.calls]
    res["created"] = run.created
    res["trace_prints"] = sorted(set(run.trace_prints))
    if err is None and req.get("eager"):
        eager_out, eager_err, eager_lines = run_once(path, limit, eager=True)
        res["eager_output"] = eager_out[-2000:]
        res["eager_error"] = eager_err
    if err is None and req.get("leaks"):
        _, leak_err, leak_lines = run_once(path, limit, leaks=True)
        res["leak_error"] = leak_err
        res["leak_lines"] = leak_lines
    global RUNS
    RUNS += 1
    if RUNS % CLEAR_EVERY == 0:
        # The programs' functions are new objects in every run, so no cache entry of one
        # program serves another; clearing now and then only bounds memory (clearing after each
        # would compile JAX's own small functions again for every program).
        jax.clear_caches()
    return res


def main():
    proto = os.fdopen(os.dup(1), "w")
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    proto.write(json.dumps({"ready": True}) + "\n")
    proto.flush()
    for line in sys.stdin:
        req = json.loads(line)
        try:
            res = handle(req, limit)
        except BaseException as e:  # noqa: BLE001
            res = {"id": req["id"], "error": "WorkerError", "detail": repr(e), "lines": []}
        proto.write(json.dumps(res) + "\n")
        proto.flush()


if __name__ == "__main__":
    main()
