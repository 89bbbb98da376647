"""Which files a run lints."""

from __future__ import annotations

import os
import stat
from typing import Iterator, List, Sequence, Tuple

from jaxlint.config import Config
from jaxlint.engine.source import file_kind

SKIP_DIRS = frozenset(
    {
        "__pycache__",
        "node_modules",
        "venv",
        "env",
        "site-packages",
        "build",
        "dist",
        ".jaxlint_cache",
    }
)


def _is_venv(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "pyvenv.cfg"))


def relpath(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return path.replace(os.sep, "/")
    if rel.startswith(".." + os.sep) or rel == "..":
        return path.replace(os.sep, "/")
    return rel.replace(os.sep, "/")


def _regular_or_unreadable(path: str) -> bool:
    """False only for what exists and is not a regular file (FIFO, device, socket).  A broken
    symlink or a path that cannot be stat'ed is kept: reading it reports the error."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True


def not_a_file_reason(path: str) -> str:
    """Why a path given on the command line cannot be linted."""
    try:
        st = os.stat(path)
    except OSError:
        return "no such file or directory"
    return f"is not a regular file ({file_kind(st.st_mode)}); use '-' to lint standard input"


def discover(paths: Sequence[str], config: Config) -> Tuple[List[str], List[str]]:
    """(files to lint, paths that do not exist or are not regular files).  Explicit files are linted even if excluded by
    a folder rule, like flake8; explicit files still honour exclude patterns that match them."""
    files: List[str] = []
    missing: List[str] = []
    seen = set()
    for p in paths:
        if p == "-":
            files.append(p)
            continue
        if not os.path.lexists(p):
            missing.append(p)
            continue
        if os.path.isdir(p):
            for f in _walk(p, config):
                key = os.path.realpath(f)
                if key not in seen:
                    seen.add(key)
                    files.append(f)
        else:
            if config.is_excluded(relpath(p)):
                continue
            if not _regular_or_unreadable(p):  # a FIFO or device named on the command line
                missing.append(p)
                continue
            key = os.path.realpath(p)
            if key not in seen:
                seen.add(key)
                files.append(p)
    return files, missing


def _walk(root: str, config: Config) -> Iterator[str]:
    visited = set()
    for dirpath, dirnames, filenames in os.walk(root, followlinks=True):
        real = os.path.realpath(dirpath)
        if real in visited:  # a symlink loop
            dirnames[:] = []
            continue
        visited.add(real)
        keep = []
        for d in sorted(dirnames):
            if d.startswith(".") or d in SKIP_DIRS or d.endswith(".egg-info"):
                continue
            full = os.path.join(dirpath, d)
            if _is_venv(full) or config.is_excluded(relpath(full)):
                continue
            keep.append(d)
        dirnames[:] = keep
        for fn in sorted(filenames):
            if fn.endswith((".py", ".pyi")):
                full = os.path.join(dirpath, fn)
                if config.is_excluded(relpath(full)) or not _regular_or_unreadable(full):
                    continue  # a FIFO named x.py would block the run: never opened
                yield full
