"""Where the report goes: standard output, or the ``--output-file`` path.

The file is opened before anything is linted, so a path that cannot be written fails at once
(one line, exit 2) instead of after a long run.  Missing parent folders are created, as ruff
does; a folder as the target is an error."""

from __future__ import annotations

import os
from typing import IO

from jaxlint.config import ConfigError


class OutputError(ConfigError):
    """The report cannot be written where asked: exit 2."""


def open_report(path: str) -> IO[str]:
    if path.endswith(("/", os.sep)) or os.path.isdir(path):
        raise OutputError(f"cannot write the report to {path}: is a folder")
    parent = os.path.dirname(path)
    try:
        if parent:
            os.makedirs(parent, exist_ok=True)
        return open(path, "w", encoding="utf-8", newline="\n")
    except FileExistsError:
        raise OutputError(f"cannot write the report to {path}: a parent is a file, not a folder") from None
    except NotADirectoryError:
        raise OutputError(f"cannot write the report to {path}: a parent is a file, not a folder") from None
    except OSError as e:
        raise OutputError(f"cannot write the report to {path}: {e.strerror or e}") from None
