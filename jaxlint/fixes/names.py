"""What a fix writes: a node's source, the local name of a module it needs (``jax``,
``jax.numpy``), and the import to add when the module has none."""

from __future__ import annotations

from typing import Optional, Tuple

import libcst as cst

from jaxlint.fixes.imports import module_alias, name_is_free

_EMPTY = cst.Module([])


def code(node) -> str:
    """A node's source, as the default module formatting writes it."""
    return _EMPTY.code_for_node(node)


def jnp_reference(scope) -> Optional[Tuple[str, Tuple[str, ...]]]:
    """``module_reference`` for ``jax.numpy``, preferably as ``jnp``."""
    return module_reference(scope, "jax.numpy", "jnp")


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
