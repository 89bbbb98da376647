"""Run the real programs (jaxlint, flake8, git, pre-commit) in subprocesses for integration tests."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from typing import Dict, List, Optional, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def env(**extra: str) -> Dict[str, str]:
    """The environment for a child: this checkout's jaxlint first on the path, no colour forcing."""
    e = dict(os.environ)
    e["PYTHONPATH"] = ROOT + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    for k in ("NO_COLOR", "FORCE_COLOR"):
        e.pop(k, None)
    e.update(extra)
    return e


def jaxlint(
    args: Sequence[str],
    cwd: str = ROOT,
    stdin: Optional[bytes] = None,
    timeout: float = 300,
    **extra_env: str,
) -> subprocess.CompletedProcess:
    """The command line, run in this process (``jaxlint.cli.main``): its exit code, and what it
    wrote to standard output and error, as bytes.  The working folder, standard input and the
    environment are the child's would be; the test run starts no interpreter for it.  Tests of
    what only a real process shows (the ``python -m jaxlint`` entry, signals) use
    :func:`jaxlint_process`."""
    from jaxlint import cli

    out, err = io.BytesIO(), io.BytesIO()
    streams = (sys.stdin, sys.stdout, sys.stderr)
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    wrappers = (
        io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8"),
        io.TextIOWrapper(out, encoding="utf-8", newline="\n", write_through=True),
        io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", newline="\n", write_through=True),
    )
    sys.stdin, sys.stdout, sys.stderr = wrappers
    try:
        for k in ("NO_COLOR", "FORCE_COLOR"):
            os.environ.pop(k, None)
        os.environ.update(extra_env)
        os.chdir(cwd)
        try:
            code = cli.main(list(args))
        except SystemExit as e:  # argparse: --help, usage errors
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        sys.stdin, sys.stdout, sys.stderr = streams
    result = subprocess.CompletedProcess(["jaxlint", *args], code or 0, out.getvalue(), err.getvalue())
    for w in wrappers:
        w.detach()  # closing the wrapper must not close the buffers read above
    return result


def jaxlint_process(
    args: Sequence[str],
    cwd: str = ROOT,
    stdin: Optional[bytes] = None,
    timeout: float = 300,
    **extra_env: str,
) -> subprocess.CompletedProcess:
    """``python -m jaxlint`` in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "jaxlint", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        env=env(**extra_env),
        timeout=timeout,
    )


def jaxlint_json(args: Sequence[str], cwd: str = ROOT) -> List[dict]:
    p = jaxlint(["--format", "json", *args], cwd=cwd)
    assert p.returncode in (0, 1), p.stderr.decode()
    return json.loads(p.stdout.decode("utf-8"))


def git(args: Sequence[str], cwd: str, check: bool = True) -> subprocess.CompletedProcess:
    e = env(
        GIT_AUTHOR_NAME="Test",
        GIT_AUTHOR_EMAIL="test@example.com",
        GIT_COMMITTER_NAME="Test",
        GIT_COMMITTER_EMAIL="test@example.com",
        GIT_CONFIG_NOSYSTEM="1",
        HOME=cwd,  # no user config leaks in (hooks, signing, default branch)
    )
    p = subprocess.run(["git", *args], cwd=cwd, capture_output=True, env=e, timeout=120)
    if check and p.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {p.stderr.decode()}")
    return p


def init_repo(path: str) -> None:
    git(["init", "-q", "-b", "main", path], cwd=os.path.dirname(path) or ".")
    git(["config", "commit.gpgsign", "false"], cwd=path)


def commit_all(path: str, message: str = "change") -> None:
    git(["add", "-A"], cwd=path)
    git(["commit", "-q", "--no-verify", "-m", message], cwd=path)
