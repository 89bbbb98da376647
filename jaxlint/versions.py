"""Versions: jaxlint's own, and JAX release numbers as the settings and the migration table
write them."""

from __future__ import annotations

import re
from typing import Optional, Tuple

__version__ = "0.8.0"

Version = Tuple[int, ...]

_VERSION_RE = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?(?:\.(\d+))?$")


def parse_version(text: str) -> Optional[Version]:
    """"0.6" -> (0, 6, 0); "0.4.30" -> (0, 4, 30); "0.9.0.1" -> (0, 9, 0, 1); None for anything else."""
    m = _VERSION_RE.match(text.strip()) if isinstance(text, str) else None
    if m is None:
        return None
    v = (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))
    return v + (int(m.group(4)),) if m.group(4) is not None else v


def format_version(v: Version) -> str:
    return ".".join(str(p) for p in v)
