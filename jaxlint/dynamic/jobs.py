"""One file's worker process as jaxlint's own process sees it: the plan written to a file, the
worker started through a launcher (jaxlint.dynamic.processes), its events read back as they
come (jaxlint.dynamic.protocol.Event), and the file's findings marked from them -- with the
reason it gave, or why it ended, for the checks it did not finish.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from typing import Dict, List, Optional, Tuple

from jaxlint.findings import Finding


def marked(f: Finding, status: str, detail: Optional[str]) -> Finding:
    """``f`` with its dynamic verdict."""
    return dataclasses.replace(f, dynamic={"status": status, "detail": detail})


class Job:
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
