"""The worker process itself: read the plan, configure JAX, import the user's module, run the
checks one by one and append each event to the output file (what was finished before a hang or
a crash is kept).  When the module cannot be imported, the checks that need nothing of it still
run."""

from __future__ import annotations

import contextlib
import json
import os

from jaxlint.dynamic.worker.imports import import_file
from jaxlint.dynamic.worker import runtime
from jaxlint.dynamic.worker.checks import run_check
from jaxlint.dynamic.worker.errors import Unverified, matches, short
from jaxlint.dynamic.worker.targets import driver_module


class Out:
    """Events as JSON lines on a file descriptor, each written whole as it happens (the worker's
    output file, the fork server's reports)."""

    def __init__(self, fd: int):
        self.fd = fd

    def emit(self, **event):
        os.write(self.fd, (json.dumps(event) + "\n").encode())


def main(argv):
    prepare()
    return check_file(argv[1], argv[2])


def prepare():
    """What every file's checks start from: prints go to stderr, JAX configured (its backend is
    made by the first check, not here).  The fork server (worker.server) does this once and
    forks a process per file after it."""
    # Whatever the user's code prints must not mix with our results.
    os.dup2(2, 1)
    jax = runtime.jax
    jax.config.update("jax_traceback_filtering", "off")
    # The checks observe tracing, errors, compilations and stale results, none of which XLA's
    # optimisation passes change; without them a compilation takes about a third less time.
    jax.config.update("jax_disable_most_optimizations", True)


def share_compilations(folder):
    """XLA compiles each program once per run, whichever file's process needs it: the files of
    a run compile many of the same programs (JAX's own small ones that make arrays, and a
    check's program again after it clears JAX's caches to count compilations).  The folder is
    the run's, removed with it; one the user configured for JAX is used as it is.  JAX still
    traces every time and reports every compilation (its backend-compile event wraps the
    lookup), which is what the checks observe."""
    jax = runtime.jax
    try:
        if not folder or jax.config.jax_compilation_cache_dir:
            return
        jax.config.update("jax_compilation_cache_dir", folder)
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
        jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    except AttributeError:
        pass  # a JAX without these settings compiles each program in each process, as before


def check_file(plan_path, out_path):
    """Import the plan's module and run its checks, each event appended to ``out_path``."""
    out = Out(os.open(out_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644))
    with open(plan_path, encoding="utf-8") as fh:
        plan = json.load(fh)
    share_compilations(plan.get("xla_cache"))
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
    runtime.MODULE = mod
    out.emit(event="imported")
    run_checks(out, mod, path, plan["checks"])
    out.emit(event="done")
    return 0


# Checks that need nothing of the module: jax.jit applied to a stub of the signature, a name
# looked up in JAX.  They still run when the module cannot be imported.
MODULE_FREE = ("static", "jax_api")


def run_checks(out, mod, path, checks, kinds=None, skip=()):
    for i, check in enumerate(checks):
        if i in skip or (kinds is not None and check.get("kind") not in kinds):
            continue
        out.emit(event="check", id=i, label=_label(check))
        try:
            runtime.LAST_ARGSET = None
            with _values_of(mod, path, check):
                status, detail = run_check(mod, path, check)
            if status != "unverified" and runtime.LAST_ARGSET is not None and runtime.LAST_ARGSET.get("captured"):
                detail = f"{detail} (arguments from {runtime.LAST_ARGSET['source']})"
            elif status != "unverified" and runtime.LAST_ARGSET is not None and runtime.LAST_ARGSET.get("annotated"):
                detail = f"{detail} (arguments from {runtime.LAST_ARGSET['annotated']})"
        except SystemExit as e:
            status, detail = "unverified", f"the code called sys.exit({e.code!r}) during the check"
        except BaseException as e:  # noqa: BLE001
            status, detail = "unverified", f"the check failed: {short(e)}"
        out.emit(event="result", id=i, status=status, detail=detail)


@contextlib.contextmanager
def _values_of(mod, path, check):
    """Example values of a driver whose target is in another file are that module's: its
    globals and classes build them while the check runs."""
    saved = runtime.MODULE
    for d in check.get("drivers") or []:
        if mod is not None and d.get("path"):
            try:
                runtime.MODULE = driver_module(mod, d, path)[0]
            except Unverified:
                pass
            break
    try:
        yield
    finally:
        runtime.MODULE = saved


def _label(check):
    for d in check.get("drivers") or []:
        return d.get("label", "")
    return check.get("code", "")
