"""Dotted names of the run's files, and qualified names resolved against the importing module."""

from __future__ import annotations

import os
from typing import Dict, Optional, Tuple


def module_name(path: str, folders: Optional[Dict[str, Tuple[str, ...]]] = None) -> str:
    """Dotted module name of a file, from the packages (folders with __init__.py) around it.
    ``folders``: what is known of folders already (folder -> its dotted parts), for naming many
    files of the same packages without looking for their ``__init__.py`` files again."""
    d, fn = os.path.split(os.path.abspath(path))
    base = os.path.splitext(fn)[0]
    parts = _package_parts(d, {} if folders is None else folders)
    return ".".join(parts if base == "__init__" else parts + (base,))


def _package_parts(d: str, folders: Dict[str, Tuple[str, ...]]) -> Tuple[str, ...]:
    parts = folders.get(d)
    if parts is None:
        parts = ()
        if os.path.isfile(os.path.join(d, "__init__.py")):
            parent, pkg = os.path.split(d)
            parts = _package_parts(parent, folders) + (pkg,) if pkg else (pkg,)
        folders[d] = parts
    return parts


def is_package(path: str) -> bool:
    return os.path.basename(path) == "__init__.py"


def absolute(target: str, importer_module: str, importer_is_package: bool) -> str:
    """Resolve a relative qualified name (``..utils.f``) against the importing module."""
    if not target.startswith("."):
        return target
    level = len(target) - len(target.lstrip("."))
    rest = target[level:]
    pkg = importer_module if importer_is_package else importer_module.rpartition(".")[0]
    for _ in range(level - 1):
        pkg = pkg.rpartition(".")[0]
    return f"{pkg}.{rest}" if pkg else rest
