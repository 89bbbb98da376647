"""How the engine starts the worker process of each file (jaxlint.dynamic.worker).

Both ways give every file a process of its own, in its own session, with its own stderr file
and a time limit (a kill ends its whole process group):

* ``ForkServer`` (Linux): one server process imports JAX once and forks a child per file
  (worker.server), which saves JAX's import, seconds, per file.  A caller that confirms
  findings again and again (a test suite) may keep one open across its ``confirm`` calls
  (``with ForkServer() as server: confirm(..., fork=server)``): each child starts in the
  working folder of the call that sent its file, as a fresh worker would;
* ``Spawned`` (elsewhere, where forking a process that imported NumPy is not safe): a fresh
  ``python -m jaxlint.dynamic.worker PLAN OUT`` per file.

A started file is a handle: ``poll()`` is its exit status (negative: killed by that signal) or
None while it runs; ``kill()`` kills it and waits until it is gone.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from typing import Dict, Optional


def worker_env() -> dict:
    env = dict(os.environ)
    env["JAX_PLATFORMS"] = "cpu"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = here + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _worker(args, stdin, stdout, stderr, env: dict) -> subprocess.Popen:
    """``python -m jaxlint.dynamic.worker ARGS`` in a session of its own (a kill ends its group)."""
    command = [sys.executable, "-m", "jaxlint.dynamic.worker", *args]
    return subprocess.Popen(command, stdin=stdin, stdout=stdout, stderr=stderr, env=env, start_new_session=True)


def fork_server_available() -> bool:
    return sys.platform.startswith("linux") and hasattr(os, "fork")


def kill_group(pid: int) -> None:
    """Kill the process group ``pid`` leads (a file's worker and whatever it started)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        # not (yet) the leader of its own group: the process alone
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


class Spawned:
    """A fresh interpreter per file."""

    class Handle:
        def __init__(self, proc: subprocess.Popen, err):
            self.proc = proc
            self.err = err

        def poll(self) -> Optional[int]:
            rc = self.proc.poll()
            if rc is not None:
                self.err.close()
            return rc

        def kill(self) -> None:
            if self.proc.poll() is None:
                kill_group(self.proc.pid)
            self.proc.wait()
            self.err.close()

    def start(self, plan: str, out: str, err: str) -> "Spawned.Handle":
        fh = open(err, "wb")
        return Spawned.Handle(_worker([plan, out], subprocess.DEVNULL, subprocess.DEVNULL, fh, worker_env()), fh)

    def close(self) -> None:
        pass


class ForkServer:
    """One ``python -m jaxlint.dynamic.worker --serve`` for the run; its reports are read by a
    thread of this process."""

    class Handle:
        def __init__(self, server: "ForkServer", n: int):
            self.server = server
            self.n = n

        def poll(self) -> Optional[int]:
            return self.server.exit_status(self.n)

        def kill(self) -> None:
            self.server.kill(self.n)

    def __init__(self, tmp: Optional[str] = None):
        self._own_tmp = tempfile.mkdtemp(prefix="jaxlint-server-") if tmp is None else None
        self.err_file = os.path.join(tmp or self._own_tmp, "server-err.txt")
        self._err = open(self.err_file, "wb")
        # What the children inherit from the server: JAX reads its environment when imported.
        self.env = worker_env()
        self.proc = _worker(["--serve"], subprocess.PIPE, subprocess.PIPE, self._err, self.env)
        self.files_sent = 0  # also the number the protocol gives the next file
        self.pids: Dict[int, int] = {}
        self.exits: Dict[int, int] = {}
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            with self.changed:
                if "started" in event:
                    self.pids[event["started"]] = event["pid"]
                elif "exited" in event:
                    self.exits[event["exited"]] = event["rc"]
                self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    def serves_this_environment(self) -> bool:
        """Whether a child forked now runs as a fresh worker would (same environment)."""
        return self.proc.poll() is None and self.env == worker_env()

    def start(self, plan: str, out: str, err: str) -> "ForkServer.Handle":
        n = self.files_sent
        self.files_sent += 1
        line = json.dumps({"n": n, "plan": plan, "out": out, "err": err, "cwd": os.getcwd()}) + "\n"
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line.encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the server is gone: exit_status says so
        return ForkServer.Handle(self, n)

    def exit_status(self, n: int) -> Optional[int]:
        with self.changed:
            if n in self.exits:
                return self.exits[n]
        if self.proc.poll() is not None:
            self.reader.join(timeout=5)
            with self.changed:
                # the server itself ended (it could not import JAX, or was killed)
                return self.exits.get(n, self.proc.returncode or 1)
        return None

    def kill(self, n: int) -> None:
        with self.changed:
            pid = self.pids.get(n)
        if pid is None:
            # Sent but never forked: the server itself is stuck (importing JAX); end it.
            kill_group(self.proc.pid)
            self.proc.wait()
            return
        kill_group(pid)
        deadline = time.monotonic() + 10
        with self.changed:
            while n not in self.exits and self.proc.poll() is None and time.monotonic() < deadline:
                self.changed.wait(0.05)

    def close(self) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            kill_group(self.proc.pid)
            self.proc.wait()
        self.reader.join(timeout=5)
        self._err.close()
        if self._own_tmp is not None:
            shutil.rmtree(self._own_tmp, ignore_errors=True)

    def __enter__(self) -> "ForkServer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
