"""How a path is shown in messages and reports: relative to the working directory with forward
slashes, or as given when it lies outside it; and a file's real path next to the path shown."""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import Optional


def relpath(path: str) -> str:
    return relative_to(path, os.getcwd())


@functools.lru_cache(maxsize=1 << 16)  # a run shows each file's path several times
def relative_to(path: str, base: str, outside: Optional[str] = None) -> str:
    """``path`` relative to ``base``, with forward slashes; ``outside`` (default: ``path``) with
    forward slashes when it is not below ``base``."""
    try:
        rel = os.path.relpath(path, base)
    except ValueError:  # another drive on Windows
        rel = ".."
    if rel.startswith(".." + os.sep) or rel == "..":
        return (path if outside is None else outside).replace(os.sep, "/")
    return rel.replace(os.sep, "/")


@dataclass(frozen=True)
class SourcePath:
    """A file as linted: ``real``, where it is (absolute, or relative to the working folder),
    which the configuration's globs match relative to the configuration folder; and ``shown``,
    the path its findings report.  A face that shows another path than the file's real one (the
    language server shows it relative to the configuration folder, whatever its own working
    folder) passes both, so config matching never depends on the working folder."""

    real: str
    shown: str

    def __str__(self) -> str:
        return self.shown


def real_path(path) -> str:
    return path.real if isinstance(path, SourcePath) else path


def shown_path(path) -> str:
    return path.shown if isinstance(path, SourcePath) else path
