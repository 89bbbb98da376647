"""How a path is shown in messages and reports: relative to the working directory with forward
slashes, or as given when it lies outside it."""

from __future__ import annotations

import functools
import os


def relpath(path: str) -> str:
    return _relpath(path, os.getcwd())


@functools.lru_cache(maxsize=1 << 16)  # a run shows each file's path several times
def _relpath(path: str, cwd: str) -> str:
    try:
        rel = os.path.relpath(path, cwd)
    except ValueError:  # another drive on Windows
        return path.replace(os.sep, "/")
    if rel.startswith(".." + os.sep) or rel == "..":
        return path.replace(os.sep, "/")
    return rel.replace(os.sep, "/")
