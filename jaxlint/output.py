"""Where the report goes: standard output, or the ``--output-file`` path.

The path is checked before anything is linted, so a path that cannot be a report fails at once
(one line, exit 2) instead of after a long run: a folder, a parent that is a file, or one of the
files being linted (writing the report there would destroy the source).  Missing parent folders
are created, as ruff does.  The report itself is written only after linting, atomically
(jaxlint.atomic): a failed run or a full disk leaves the old file as it was."""

from __future__ import annotations

import os
from typing import Iterable, Optional

from jaxlint.atomic import describe, write_bytes
from jaxlint.config import ConfigError


class OutputError(ConfigError):
    """The report cannot be written where asked: exit 2."""


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def check_report_path(path: str, inputs: Iterable[str] = (), stdin_filename: Optional[str] = None) -> None:
    if path.endswith(("/", os.sep)) or os.path.isdir(path):
        raise OutputError(f"cannot write the report to {path}: is a folder")
    for src in list(inputs) + ([stdin_filename] if stdin_filename else []):
        if src and src != "-" and _same_file(path, src):
            raise OutputError(f"cannot write the report to {path}: it is one of the files being linted")
    parent = os.path.dirname(path)
    try:
        if parent:
            os.makedirs(parent, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise OutputError(f"cannot write the report to {path}: a parent is a file, not a folder") from None
    except OSError as e:
        raise OutputError(f"cannot write the report to {path}: {describe(e)}") from None


def write_report(path: str, text: str) -> None:
    try:
        write_bytes(path, text.encode("utf-8", "surrogatepass"))
    except OSError as e:
        raise OutputError(f"cannot write the report to {path}: {describe(e)}") from None
