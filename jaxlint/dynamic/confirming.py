"""The run of ``jaxlint --dynamic`` in jaxlint's own process: a worker per file with a check
to run, at most ``jobs`` at once, each under its time limit, its findings marked from the events
it writes (or from why it ended); then the files left unverified run as scripts.

Loaded by ``jaxlint.dynamic.confirm`` on first use: it imports the rules (for their ``prevents``
declarations) and the engine (for entry points in other files), which the worker never needs.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Optional, Sequence, TextIO, Tuple, Union

from jaxlint.dynamic.plan import plan_checks
from jaxlint.dynamic.processes import ForkServer, Spawned, fork_server_available
from jaxlint.dynamic.remote import reach_remote_entries
from jaxlint.findings import Finding

_Pending = List[Tuple["Job", List[int]]]  # a file's job and the indexes of its findings


def confirm_findings(findings, real_paths, timeout, progress, jobs, config_for, fork) -> List[Finding]:
    """What ``jaxlint.dynamic.confirm`` returns, for the same arguments."""
    findings = reach_remote_entries(findings, real_paths, config_for)
    result: List[Optional[Finding]] = list(findings)
    tmp = tempfile.mkdtemp(prefix="jaxlint-dynamic-")
    try:
        pending = _planned_jobs(findings, real_paths, result, tmp)
        jobs = max(1, jobs or min(2, os.cpu_count() or 1))
        unimportable = _run_jobs(pending, result, timeout, jobs, fork, tmp, progress)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return observe_unverified([f for f in result if f is not None], real_paths, timeout, unimportable)


def _planned_jobs(findings: Sequence[Finding], real_paths: Dict[str, str], result: List[Optional[Finding]], tmp: str) -> _Pending:
    """A job per file with a check to run; the findings of the others are marked in ``result``
    (a file with nothing to run is not imported at all)."""
    by_file: Dict[str, List[int]] = {}
    for i, f in enumerate(findings):
        if f.path not in real_paths:
            result[i] = marked(f, "unverified", "only files can be imported")
        else:
            by_file.setdefault(f.path, []).append(i)
    pending: _Pending = []
    for n, (path, idxs) in enumerate(sorted(by_file.items())):
        real = os.path.abspath(real_paths[path])
        fl = [findings[i] for i in idxs]
        checks = plan_checks(fl)
        if all(c["kind"] == "none" for c in checks):
            for i, c in zip(idxs, checks):
                result[i] = marked(findings[i], "unverified", c.get("reason"))
            continue
        pending.append((Job(path, real, fl, checks, tmp, n), idxs))
    return pending


def _launcher(fork: Union[bool, ForkServer, None], tmp: str, pending: _Pending):
    """(what starts the workers, the caller's server when it is the one): a server the caller
    keeps is used while it serves this environment; otherwise the run starts its own."""
    kept = fork if isinstance(fork, ForkServer) and fork.serves_this_environment() else None
    if not pending or kept is not None:
        return kept, kept
    if fork is True or (not isinstance(fork, bool) and fork_server_available()):
        return ForkServer(tmp), kept
    return Spawned(), kept


def _run_jobs(pending: _Pending, result, timeout: float, jobs: int, fork, tmp: str, progress: Optional[TextIO]) -> List[str]:
    """Run the jobs, ``jobs`` at a time, marking their findings in ``result``; the files whose
    import failed, hung or crashed."""
    total = len(pending)
    running: _Pending = []
    queue = list(pending)
    finished = 0
    unimportable: List[str] = []
    workers, kept = _launcher(fork, tmp, pending)
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
                _show_progress(progress, running[0][0], finished + 1, total)
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
    return unimportable


def _show_progress(progress: TextIO, job: Job, number: int, total: int) -> None:
    what = f": {job.current}" if job.current else (": importing" if not job.imported else "")
    line = f"jaxlint --dynamic: file {number} of {total} {job.path}{what}"
    progress.write("\r\x1b[K" + line[:200])
    progress.flush()


def _observed(real: str, out: str, timeout: float) -> List[dict]:
    """What ``jaxlint run`` reports running ``real`` as a script in its own folder ([] when
    the run fails or times out)."""
    # The stale check runs a jitted function's body a second time; the dynamic mode was asked
    # to run the file's code, and a stale value shows no other way at run time.
    cmd = [sys.executable, "-m", "jaxlint", "run", "--no-static", "--check-stale", "--format", "json", "-o", out, real]
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
            f = marked(f, "confirmed", f"observed when the file ran as a script{also}")
        out_findings.append(f)
    return out_findings


def marked(f: Finding, status: str, detail: Optional[str]) -> Finding:
    """``f`` with its dynamic verdict."""
    return dataclasses.replace(f, dynamic={"status": status, "detail": detail})


class Job:
    """One worker process checking one file."""

    def __init__(self, path: str, real: str, findings: List[Finding], checks: List[dict], tmp: str, n: int):
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
        rc = getattr(self, "returncode", None)
        where = "while importing the module" if not self.imported else (f"while checking {self.current}" if self.current else "")
        if getattr(self, "timed_out", False):
            reason = f"timed out after {self.timeout:g} s {where}".rstrip()
        elif self.import_reason:
            reason = self.import_reason
        elif not self.done:
            how = f"was killed by signal {-rc}" if rc is not None and rc < 0 else f"exited with status {rc}"
            tail = self._stderr_tail()
            reason = f"the worker process {how} {where}".rstrip() + (f" ({tail})" if tail else "")
        else:
            reason = "no result"
        return [marked(f, *self.results.get(i, ("unverified", reason))) for i, f in enumerate(self.findings)]
