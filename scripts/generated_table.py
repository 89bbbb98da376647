"""Write a generated table into the package, or with ``--check`` compare it (the scripts that
derive tables from JAX and NumPy share this)."""

from __future__ import annotations

import sys
from typing import Optional, Sequence


def write_or_check(path: str, text: str, argv: Optional[Sequence[str]] = None) -> Optional[int]:
    """With ``--check`` in ``argv`` (default: the command line): 0 when ``path`` holds ``text``,
    else 1.  Otherwise write ``text`` to ``path`` and return None (the caller reports)."""
    if "--check" in (argv if argv is not None else sys.argv[1:]):
        with open(path, encoding="utf-8") as fh:
            return 0 if fh.read() == text else 1
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return None
