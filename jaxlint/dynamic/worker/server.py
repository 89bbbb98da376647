"""``python -m jaxlint.dynamic.worker --serve``: import JAX once, then fork one process per file.

Importing JAX takes seconds, more than checking most files.  The server imports it (and
nothing of the user's) and then, for each file the engine sends, forks a child that does what a
fresh worker process does after that import (entry.check_file): the child is a process of its
own, in its own session (a timeout kills its whole group), with its own stderr file, so an
import that hangs, crashes or calls ``sys.exit`` still ends only that file's checks, and no
module a child imports is seen by the next one.  JAX's backend is not made before the fork
(making it starts threads): each child makes its own.

Protocol, one JSON object per line.  In (stdin): ``{"n", "plan", "out", "err", "cwd"}`` per
file (``cwd``: the working folder of the engine when it sent the file); end
of input ends the server, killing the children still running.  Out (the stdout the server was
started with): ``{"started": n, "pid": pid}`` once a child runs, ``{"exited": n, "rc": rc}``
when it is over (``rc`` negative: killed by that signal).
"""

from __future__ import annotations

import json
import os
import select
import sys
import traceback

from jaxlint.dynamic.processes import kill_group
from jaxlint.dynamic.worker import entry


def serve() -> int:
    protocol = os.dup(1)  # entry.prepare points fd 1 at stderr
    reports = entry.Out(protocol)
    started_in = os.getcwd()
    entry.prepare()
    children = {}  # pid -> n
    pending = b""
    reading = True
    while reading or children:
        if reading:
            ready, _, _ = select.select([0], [], [], 0.02)
            if ready:
                data = os.read(0, 65536)
                if not data:
                    reading = False
                    for pid in children:
                        kill_group(pid)
                pending += data
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    if line.strip():
                        job = json.loads(line)
                        pid = os.fork()
                        if pid == 0:
                            _child(job, protocol, started_in)
                        children[pid] = job["n"]
                        reports.emit(started=job["n"], pid=pid)
        else:
            select.select([], [], [], 0.02)
        while children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            n = children.pop(pid, None)
            if n is not None:
                reports.emit(exited=n, rc=os.waitstatus_to_exitcode(status))
    return 0


def _child(job, protocol, started_in) -> None:
    """The forked process: what ``python -m jaxlint.dynamic.worker PLAN OUT`` started in
    ``job["cwd"]`` does once JAX is imported.  Never returns."""
    rc = 1
    try:
        os.setsid()
        os.close(protocol)
        cwd = job.get("cwd", started_in)
        if cwd != started_in:
            os.chdir(cwd)
            # ``python -m`` puts the folder it started in first on the path
            if sys.path and sys.path[0] == started_in:
                sys.path[0] = cwd
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        err = os.open(job["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(err, 2)
        os.dup2(err, 1)
        os.close(err)
        sys.argv = [sys.argv[0], job["plan"], job["out"]]
        rc = entry.check_file(job["plan"], job["out"])
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 1
    except BaseException:  # noqa: BLE001 - reported on the child's stderr, like a worker's crash
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            # Do not wait for threads the user's module may have started.
            os._exit(rc)
