"""How a path is shown in messages and reports: relative to the working directory with forward
slashes, or as given when it lies outside it; and a file's real path next to the path shown."""

from __future__ import annotations

import functools
import os
from typing import NamedTuple, Optional


def relpath(path: str, cwd: Optional[str] = None) -> str:
    """``path`` as shown; ``cwd``: the working folder, when the caller has asked for it (a run
    over thousands of files asks once: on a network filesystem each time is a round trip)."""
    cwd = cwd or os.getcwd()
    return _relative_to(path, cwd, None, cwd)


def relative_to(path: str, base: str, outside: Optional[str] = None) -> str:
    """``path`` relative to ``base``, with forward slashes; ``outside`` (default: ``path``) with
    forward slashes when it is not below ``base``."""
    return _relative_to(path, base, outside, None)


def _relative_to(path: str, base: str, outside: Optional[str], cwd: Optional[str]) -> str:
    """``relative_to``; ``cwd``: the working folder, when the caller knows it."""
    folder, name = os.path.split(path)
    # A run shows thousands of files of a few hundred folders: the folder's relative path is
    # worked out once (``os.path.relpath`` asks the system for the working folder, twice) and
    # the name joined to it.  A name that moves (".", ".."), and a file of the folder above
    # ``base`` (``base`` itself, perhaps), take the long way.
    if name in ("", os.curdir, os.pardir):
        rel = None
    else:
        folder = folder or os.curdir
        # a relative folder or base is read from the working folder
        if os.path.isabs(folder) and os.path.isabs(base):
            cwd = None
        elif cwd is None:
            cwd = os.getcwd()
        rel = _relative_folder(folder, base, cwd)
    if rel is None or rel == os.pardir:
        try:
            rel = os.path.relpath(path, base)
        except ValueError:  # another drive on Windows
            rel = os.pardir
    elif rel != os.curdir:
        rel = rel + os.sep + name
    else:
        rel = name
    if rel.startswith(os.pardir + os.sep) or rel == os.pardir:
        return (path if outside is None else outside).replace(os.sep, "/")
    return rel.replace(os.sep, "/")


@functools.lru_cache(maxsize=1 << 12)
def _relative_folder(folder: str, base: str, _cwd: Optional[str]) -> Optional[str]:
    try:
        return os.path.relpath(folder, base)
    except ValueError:  # another drive on Windows
        return None


class SourcePath(NamedTuple):
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
