"""The local name of a module a fix needs (``jax``, ``jax.numpy``), and the import to add
when the module has none."""

from __future__ import annotations

from typing import Optional, Tuple

from jaxlint.fixes.imports import module_alias, name_is_free


def module_reference(scope, module_name: str, preferred: str) -> Optional[Tuple[str, Tuple[str, ...]]]:
    """(name to write, imports to add) for referring to ``module_name`` from ``scope``: the
    existing alias, else ``preferred`` with its import when that name is free; None otherwise."""
    alias = module_alias(scope, module_name)
    if alias is not None:
        return alias, ()
    if not name_is_free(scope, preferred):
        return None
    if preferred == module_name:
        return preferred, (f"import {module_name}",)
    return preferred, (f"import {module_name} as {preferred}",)
