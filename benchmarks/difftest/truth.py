"""The truth about a generated program, from JAX: run it in worker processes and label it.

Outcomes (each observed while the program runs, never taken from the generator):

- ``raises``: the program raised.  ``error`` is the exception class's name as printed in the
  traceback; ``line`` the deepest line of the program in the traceback; ``lines`` every line of
  the program in it (the call chain that led there).
- ``recompiles``: a function the program compiles (``jax.jit``, ``eqx.filter_jit``,
  ``nnx.jit``) was traced more often than its calls need.  A call needs a trace when the
  abstract signature of its arguments (shape and dtype of each array leaf) is new for that
  function, *and* that signature is new at that call chain for a chain that already called it
  with another signature: a call made from one place (a loop) with shapes that change is a
  compilation per shape that fixed shapes avoid, whereas two places calling with two shapes
  (training and evaluation) are two needed compilations.  So a program recompiles when some
  function has more traces than distinct signatures (a changing static value, a weak type that
  flips, a keyword where a position was used, a compiled callable built again for the same
  function), or when one call chain calls it with more than one signature.  The failing lines
  are the call chain of the call that traced again, and the lines where the compiled callable
  was made.
- ``stale``: the run completed, and its output differs from the reference run of the same
  program: under ``jax.disable_jit()``, with ``jax.checkpoint`` as the function it wraps (it
  caches its trace even with jit disabled).  A value read after it changed showed the old one,
  or a side effect ran a different number of times than the calls (the programs print what
  they computed and what their effects left).  The reference run is made for the programs of
  category C (the others have no effect to observe).  The failing line is the sink's effect
  line: the read or the effect inside the traced code (where jaxlint reports
  JAX301/JAX302/JAX303/JAX306/JAX307).  It is the one fact a record takes from the program's
  text rather than from the run: where the effect is, not whether it goes wrong.
  Numbers in the two outputs count as equal within float rounding (a compiled loop may round
  its last digit differently from the eager run): only the text around them and values that
  differ beyond that make a program stale.
- ``ok``: it completed, compiled no more than needed, and printed what the eager run printed,
  apart from trace-time logging: lines that ``print`` wrote while JAX traced a function, none of
  them showing a tracer, may be printed fewer times than in the eager run (once per trace
  instead of once per call).  A ``print`` of Python values in traced code is logging that
  jaxlint leaves alone by design; such programs are labelled ``ok`` with ``"logging": true``
  and counted in the summary.

A program whose run proves nothing is dropped and counted: a timeout, a crash of the worker, an
error of a kind its category does not aim at (a ``NameError``, or a ``ValueError`` in a
traced-value program), or an observation of another category (a traced-value program that
recompiles).  Which errors each category aims at is ``AIMED``.
"""

from __future__ import annotations

import json
import math
import os
import queue
import re
import select
import subprocess
import sys
import threading
import time
from typing import Dict, List, Optional, Tuple

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "worker.py")

TRACED_ERRORS = {
    "TracerBoolConversionError",
    "ConcretizationTypeError",
    "TracerIntegerConversionError",
    "TracerArrayConversionError",
    "NonConcreteBooleanIndexError",
}
AIMED = {
    "A": TRACED_ERRORS,
    "B": {"ValueError", "TypeError"} | TRACED_ERRORS,
    "C": {"TypeError", "UnexpectedTracerError"},
    "R": set(),
}


class Worker:
    """One worker process; restarted after a timeout or a crash."""

    def __init__(self, limit: int):
        self.limit = limit
        self.proc = None
        self.start()

    def start(self):
        env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONUNBUFFERED="1", TF_CPP_MIN_LOG_LEVEL="3")
        self.proc = subprocess.Popen(
            [sys.executable, WORKER, str(self.limit)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        self._read(120)

    def _read(self, timeout: float) -> Optional[dict]:
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if ready:
                line = self.proc.stdout.readline()
                if not line:
                    return None
                return json.loads(line)

    def run(self, pid: int, path: str, eager: bool, leaks: bool = False) -> dict:
        try:
            self.proc.stdin.write(json.dumps({"id": pid, "path": path, "eager": eager, "leaks": leaks}) + "\n")
            self.proc.stdin.flush()
            res = self._read(self.limit * 2 + 30)
        except (BrokenPipeError, OSError, ValueError):
            res = None
        if res is None:
            self.kill()
            self.start()
            return {"id": pid, "error": "Timeout", "lines": [], "worker_lost": True}
        return res

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def close(self):
        if self.proc and self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def run_all(paths: Dict[int, str], jobs: int, limit: int = 20, progress=None, eager=(), leaks=()) -> Dict[int, dict]:
    """Run every program (id -> path) on ``jobs`` workers; id -> raw worker result.  The programs
    in ``eager`` are also run for reference under ``jax.disable_jit()`` when they complete, and
    those in ``leaks`` under ``jax.checking_leaks()``."""
    todo: "queue.Queue" = queue.Queue()
    for pid in sorted(paths):
        todo.put(pid)
    results: Dict[int, dict] = {}
    lock = threading.Lock()

    def loop():
        w = Worker(limit)
        try:
            while True:
                try:
                    pid = todo.get_nowait()
                except queue.Empty:
                    return
                res = w.run(pid, paths[pid], pid in eager, pid in leaks)
                with lock:
                    results[pid] = res
                    if progress:
                        progress(len(results), len(paths))
        finally:
            w.close()

    threads = [threading.Thread(target=loop) for _ in range(max(1, jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def recompilation(res: dict) -> Optional[Tuple[List[int], int]]:
    """(the failing lines, the deepest line of the first call that compiled again) when the
    run recompiled (see the module docstring), else None."""
    calls = res.get("calls") or []
    traces = res.get("traces") or {}
    created = res.get("created") or {}
    failing: List[int] = []
    first: List[int] = []  # the chain of the first call that compiled again
    by_key: Dict[str, list] = {}
    for key, sig, chain, traced in calls:
        by_key.setdefault(key, []).append((tuple(map(tuple, sig)), tuple(chain), traced))
    for key, items in by_key.items():
        sigs = {s for s, _, _ in items}
        bad = False
        if traces.get(key, 0) > len(sigs):
            bad = True
            seen = set()
            for s, chain, traced in items:
                if traced and s in seen:
                    failing.extend(chain)
                    first = first or list(chain)
                if traced:
                    seen.add(s)
        per_chain: Dict[tuple, set] = {}
        for s, chain, traced in items:
            per_chain.setdefault(chain, set()).add(s)
        for chain, ss in per_chain.items():
            if len(ss) > 1:
                bad = True
                failing.extend(chain)
                first = first or list(chain)
        if bad:
            failing.extend(created.get(key, []))
    if not failing:
        return None
    lines = sorted(set(failing))
    # the deepest line of the first recompiling call's chain: the call of the compiled callable
    return lines, (first[-1] if first else lines[-1])


_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def same_output(a: str, b: str) -> bool:
    """The two runs printed the same: the same text (up to spacing), with numbers equal up to
    float rounding."""
    if a == b:
        return True
    # NumPy pads its columns to the widest number: spacing may change with the digits
    if [t.split() for t in _NUMBER.split(a)] != [t.split() for t in _NUMBER.split(b)]:
        return False
    xs, ys = _NUMBER.findall(a), _NUMBER.findall(b)
    return len(xs) == len(ys) and all(math.isclose(float(x), float(y), rel_tol=1e-5, abs_tol=1e-6) for x, y in zip(xs, ys))


TRACER_TEXT = ("Traced<", "Tracer")


def trace_time_logging(res: dict) -> bool:
    """The two runs differ only in how often ``print`` wrote lines that it wrote while JAX
    traced, and none of those lines shows a tracer: the program logs Python values at trace
    time, which jaxlint leaves alone by design (README, "print of static values")."""
    logged = set(res.get("trace_prints") or ())
    if not logged or any(t in line for line in logged for t in TRACER_TEXT):
        return False

    def rest(output: str) -> str:
        return "\n".join(line for line in output.splitlines() if line not in logged)

    return same_output(rest(res.get("output") or ""), rest(res.get("eager_output") or ""))


def label(category: str, res: dict, effect_lines: List[int]) -> dict:
    """The ``jax`` record of a program: outcome, error, line(s); or ``dropped`` with a reason."""
    err = res.get("error")
    if err is not None:
        if err in ("Timeout", "WorkerError", "SystemExit"):
            return {"outcome": "dropped", "reason": err.lower()}
        lines = res.get("lines") or []
        aimed = err in AIMED[category] or (
            # ``jnp.zeros(n)`` with a traced ``n`` is a TypeError naming the tracer
            category == "A" and err == "TypeError" and "Traced<" in (res.get("message") or "")
        )
        if not aimed or not lines:
            return {"outcome": "dropped", "reason": f"unaimed error {err}", "error": err}
        return {"outcome": "raises", "error": err, "line": lines[-1], "lines": sorted(set(lines))}
    rec = recompilation(res)
    if res.get("eager_error") is not None:
        return {"outcome": "dropped", "reason": f"eager run raised {res['eager_error']}"}
    stale = "eager_output" in res and not same_output(res.get("output") or "", res.get("eager_output") or "")
    if stale and trace_time_logging(res):
        return {"outcome": "ok", "logging": True}
    if rec is not None and category == "R":
        return {"outcome": "recompiles", "line": rec[1], "lines": rec[0]}
    if stale and category == "C":
        return {"outcome": "stale", "line": effect_lines[-1] if effect_lines else None, "lines": list(effect_lines)}
    if rec is not None:
        return {"outcome": "dropped", "reason": "unaimed recompiles"}
    if stale:
        return {"outcome": "dropped", "reason": "unaimed stale"}
    return {"outcome": "ok"}
