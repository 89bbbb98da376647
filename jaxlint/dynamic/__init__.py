"""``jaxlint --dynamic``: confirm static findings by tracing the code with JAX.

Safety model: for every file with findings, a separate worker process (``python -m
jaxlint.dynamic.worker``, or on Linux a child forked from one server process that imported JAX
once: jaxlint.dynamic.processes) imports the file as a module -- which executes its top-level code, but
not as ``__main__`` -- and then traces the functions behind the findings with
``jax.make_jaxpr`` / ``jax.jit`` on CPU.  To build arguments it may run the module's driver code
up to the call of the entry point (jaxlint.dynamic.worker.drivers): the ``__main__`` block's
assignments and the statements that lead to the call, never its other statements.  Each worker has a timeout; an import
error, a crash, a hang or a ``sys.exit`` only makes that file's findings ``unverified``.

Last, a file whose findings the checks could not verify (its functions are reached only through
its own driver: nested in ``main()``, fed by objects the driver builds) but which imported
cleanly is run as a script, as ``python file.py`` would run it, under ``jaxlint run``, with the
same timeout: a finding is confirmed when that run shows the same bug on its line.  This runs
the whole ``__main__`` block.

This package never imports JAX itself (only the worker does), and the static rules never import
this package.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import shutil
import tempfile
import time
from collections import Counter
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, TextIO, Tuple, Union

from jaxlint.findings import Finding

if TYPE_CHECKING:
    from jaxlint.dynamic.processes import ForkServer

INSTALL_HINT = "python -m pip install 'jax>=0.4.30' (from a clone of jaxlint: python -m pip install '.[dynamic]')"
DEFAULT_TIMEOUT = 60.0
STATUSES = ("confirmed", "refuted", "unverified")


def jax_available() -> bool:
    """Whether JAX can be imported, found without importing it."""
    try:
        return importlib.util.find_spec("jax") is not None and importlib.util.find_spec("jaxlib") is not None
    except (ImportError, ValueError):
        return False


def _mark(f: Finding, status: str, detail: Optional[str]) -> Finding:
    return dataclasses.replace(f, dynamic={"status": status, "detail": detail})


class _Job:
    """One worker process checking one file."""

    def __init__(self, path: str, real: str, findings: List[Finding], checks: List[dict], tmp: str, n: int):
        self.n = n
        self.path = path
        self.real = real
        self.findings = findings
        self.checks = checks
        self.plan_file = os.path.join(tmp, f"plan{n}.json")
        self.xla_cache = os.path.join(tmp, "xla")  # shared by the run's files (worker.entry)
        self.out_file = os.path.join(tmp, f"out{n}.jsonl")
        self.err_file = os.path.join(tmp, f"err{n}.txt")
        self.results: Dict[int, Tuple[str, str]] = {}
        self.imported = False
        self.import_reason: Optional[str] = None
        self.done = False
        self.current: Optional[str] = None
        self.current_id: Optional[int] = None
        self.proc = None  # its handle (jaxlint.dynamic.processes)
        self.started = 0.0
        self._pos = 0

    def start(self, timeout: float, workers) -> None:
        with open(self.plan_file, "w", encoding="utf-8") as fh:
            json.dump({"path": self.real, "checks": self.checks, "xla_cache": self.xla_cache}, fh)
        open(self.out_file, "w").close()
        self.proc = workers.start(self.plan_file, self.out_file, self.err_file)
        self.started = time.monotonic()
        self.timeout = timeout

    def read(self) -> None:
        with open(self.out_file, encoding="utf-8") as fh:
            fh.seek(self._pos)
            data = fh.read()
        # only complete lines
        end = data.rfind("\n")
        if end < 0:
            return
        self._pos += len(data[: end + 1].encode("utf-8"))
        for line in data[: end + 1].splitlines():
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            kind = ev.get("event")
            if kind == "imported":
                self.imported = True
            elif kind == "import_failed":
                self.import_reason = ev.get("reason")
            elif kind == "check":
                self.current = ev.get("label")
                self.current_id = ev.get("id")
            elif kind == "result":
                self.results[ev["id"]] = (ev["status"], ev.get("detail"))
            elif kind == "done":
                self.done = True

    def poll(self) -> bool:
        """True when the job is over (finished, failed or killed)."""
        assert self.proc is not None
        self.read()
        rc = self.proc.poll()
        if rc is not None:
            self.read()
            self.returncode = rc
            return True
        if time.monotonic() - self.started > self.timeout:
            self.kill()
            self.read()
            self.returncode = None
            self.timed_out = True
            return True
        return False

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()

    def _stderr_tail(self) -> str:
        try:
            with open(self.err_file, "rb") as fh:
                lines = [l for l in fh.read().decode("utf-8", "replace").splitlines() if l.strip()]
        except OSError:
            return ""
        return lines[-1].strip()[:160] if lines else ""

    def outcome(self) -> List[Finding]:
        timed_out = getattr(self, "timed_out", False)
        rc = getattr(self, "returncode", None)
        if timed_out:
            where = "while importing the module" if not self.imported else (f"while checking {self.current}" if self.current else "")
            reason = f"timed out after {self.timeout:g} s {where}".rstrip()
        elif self.import_reason:
            reason = self.import_reason
        elif not self.done:
            how = f"was killed by signal {-rc}" if rc is not None and rc < 0 else f"exited with status {rc}"
            where = "while importing the module" if not self.imported else (f"while checking {self.current}" if self.current else "")
            tail = self._stderr_tail()
            reason = f"the worker process {how} {where}".rstrip() + (f" ({tail})" if tail else "")
        else:
            reason = "no result"
        out = []
        for i, f in enumerate(self.findings):
            status, detail = self.results.get(i, ("unverified", reason))
            out.append(_mark(f, status, detail))
        return out


def confirm(
    findings: Sequence[Finding],
    real_paths: Dict[str, str],
    timeout: float = DEFAULT_TIMEOUT,
    progress: Optional[TextIO] = None,
    jobs: Optional[int] = None,
    config_for=None,
    fork: Union[bool, "ForkServer", None] = None,
) -> List[Finding]:
    """Return the findings with ``dynamic`` set.  ``real_paths`` maps a finding's path to the file.

    The checks are planned from the findings' own facts (derived by the engine with the run's
    configuration), so the files are not read or parsed again here -- except, for a finding
    whose traced entry point is in another file, that file (``config_for(path)``: its
    configuration), to describe the entry point (jaxlint.dynamic.remote).  ``fork``: whether the
    files' processes are forked from one server that imported JAX (None: where that is safe;
    jaxlint.dynamic.processes), or an open ``ForkServer`` to fork them from (used while it
    serves the current environment; otherwise this call starts its own)."""
    # engine-side only: the worker process imports this package too, and must stay light
    from jaxlint.dynamic.plan import plan_checks
    from jaxlint.dynamic.processes import ForkServer, Spawned, fork_server_available
    from jaxlint.dynamic.remote import reach_remote_entries

    findings = reach_remote_entries(findings, real_paths, config_for)

    by_file: Dict[str, List[int]] = {}
    result: List[Optional[Finding]] = list(findings)
    for i, f in enumerate(findings):
        if f.path not in real_paths:
            result[i] = _mark(f, "unverified", "only files can be imported")
        else:
            by_file.setdefault(f.path, []).append(i)
    tmp = tempfile.mkdtemp(prefix="jaxlint-dynamic-")
    pending: List[Tuple[_Job, List[int]]] = []
    unimportable: List[str] = []
    try:
        for n, (path, idxs) in enumerate(sorted(by_file.items())):
            real = os.path.abspath(real_paths[path])
            fl = [findings[i] for i in idxs]
            checks = plan_checks(fl)
            if all(c["kind"] == "none" for c in checks):
                # nothing to run: the module is not imported at all
                for i, c in zip(idxs, checks):
                    result[i] = _mark(findings[i], "unverified", c.get("reason"))
                continue
            pending.append((_Job(path, real, fl, checks, tmp, n), idxs))
        total = len(pending)
        jobs = max(1, jobs or min(2, os.cpu_count() or 1))
        running: List[Tuple[_Job, List[int]]] = []
        queue = list(pending)
        finished = 0
        # A server the caller keeps is used while it serves this environment; otherwise the
        # run starts (and closes) its own launcher.
        kept = fork if isinstance(fork, ForkServer) and fork.serves_this_environment() else None
        if not pending or kept is not None:
            workers = kept
        elif fork is True or (not isinstance(fork, bool) and fork_server_available()):
            workers = ForkServer(tmp)
        else:
            workers = Spawned()
        try:
            while queue or running:
                while queue and len(running) < jobs:
                    job, idxs = queue.pop(0)
                    job.start(timeout, workers)
                    running.append((job, idxs))
                still = []
                for job, idxs in running:
                    if job.poll():
                        finished += 1
                        if not job.imported:
                            unimportable.append(job.path)
                        for i, f in zip(idxs, job.outcome()):
                            result[i] = f
                    else:
                        still.append((job, idxs))
                running = still
                if progress is not None and running:
                    job = running[0][0]
                    what = f": {job.current}" if job.current else (": importing" if not job.imported else "")
                    line = f"jaxlint --dynamic: file {finished + 1} of {total} {job.path}{what}"
                    progress.write("\r\x1b[K" + line[:200])
                    progress.flush()
                if running:
                    time.sleep(0.05)
        finally:
            for job, _ in running:
                job.kill()
            if workers is not None and workers is not kept:
                workers.close()
            if progress is not None and total:
                progress.write("\r\x1b[K")
                progress.flush()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return observe_unverified([f for f in result if f is not None], real_paths, timeout, unimportable)


def _observed(real: str, out: str, timeout: float) -> List[dict]:
    """What ``jaxlint run`` reports running ``real`` as a script in its own folder ([] when
    the run fails or times out)."""
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "jaxlint", "run", "--no-static", "--format", "json", "-o", out, real]
    try:
        if os.path.exists(out):
            os.unlink(out)
        subprocess.run(cmd, cwd=os.path.dirname(real), stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
        with open(out, encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return []


def observe_unverified(findings: List[Finding], real_paths: Dict[str, str], timeout: float, unimportable: Sequence[str] = ()) -> List[Finding]:
    """The findings the checks left unverified, confirmed where running their file as a script
    (``jaxlint run``: its own ``__main__`` block, its own arguments and objects) shows the same
    bug on the same line.  A run that does not show it refutes nothing: the script may not
    reach that code.  ``unimportable``: the files whose import failed, hung or crashed in the
    checks (running them again would do the same)."""
    files = sorted(
        {
            real_paths[f.path]
            for f in findings
            if (f.dynamic or {}).get("status") == "unverified" and f.path in real_paths and f.path not in unimportable
        }
    )
    seen: Dict[Tuple[str, int], List[str]] = {}
    tmp = tempfile.mkdtemp(prefix="jaxlint-observe-")
    try:
        for real in files:
            observed = _observed(os.path.abspath(real), os.path.join(tmp, "found.json"), timeout)
            folder = os.path.dirname(os.path.abspath(real))
            for o in observed:
                seen.setdefault((os.path.abspath(os.path.join(folder, o["path"])), o["line"]), []).append(o["code"])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    out_findings = []
    for f in findings:
        codes = seen.get((os.path.abspath(real_paths.get(f.path, "")), f.line), []) if (f.dynamic or {}).get("status") == "unverified" else []
        same = [c for c in codes if c == f.code] or [c for c in codes if c[:4] == f.code[:4]]
        if same:
            also = "" if same[0] == f.code else f" (as {same[0]})"
            f = _mark(f, "confirmed", f"observed when the file ran as a script{also}")
        out_findings.append(f)
    return out_findings


def summary(findings: Sequence[Finding]) -> str:
    c = Counter((f.dynamic or {}).get("status") for f in findings)
    return f"{c['confirmed']} confirmed, {c['refuted']} refuted, {c['unverified']} unverified"


def drop_refuted(findings: Sequence[Finding]) -> List[Finding]:
    return [f for f in findings if (f.dynamic or {}).get("status") != "refuted"]
