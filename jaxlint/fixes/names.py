"""What a fix writes: a node's source, the local name of a module it needs (``jax``,
``jax.numpy``), the import to add when the module has none, and where that import goes."""

from __future__ import annotations

from typing import Optional, Tuple

import libcst as cst

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


def _is_import_line(stmt) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and all(isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body)


def _is_docstring(stmt) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def import_edit(module: cst.Module, positions, statement: str) -> Optional[Tuple[int, int, int, int, str]]:
    """(line, column, end_line, end_column, text) inserting ``statement`` on the line after the
    module's leading imports (after its docstring when it has none); None when the module
    already has exactly that statement at top level."""
    body = list(module.body)
    for stmt in body:
        if _is_import_line(stmt) and module.code_for_node(stmt.body[0]).strip() == statement and len(stmt.body) == 1:
            return None
    anchor = None
    for i, stmt in enumerate(body):
        if i == 0 and _is_docstring(stmt):
            anchor = stmt
            continue
        if _is_import_line(stmt):
            anchor = stmt
            continue
        break
    newline = module.default_newline
    if anchor is None:
        return (1, 1, 1, 1, statement + newline)
    rng = positions.get(anchor)
    # A statement line's range ends before its newline: insert on the next line.
    line = rng.end.line + 1
    return (line, 1, line, 1, statement + newline)


def module_alias(scope, module_name: str) -> Optional[str]:
    """A name bound by ``import module_name [as alias]`` at module level, usable from ``scope``
    (not shadowed there).  None when there is none."""
    top = scope.module()
    for local, full in sorted(top.imports.items()):
        if full == module_name and scope.resolve_import(local) == module_name and _plain_import_binding(top, local):
            return local
    return None


def _plain_import_binding(top, name: str) -> bool:
    # Rebound later (``np = None``) or imported more than once: not trusted.
    b = top.only_binding(name)
    return b is not None and b.kind == "import"


def name_is_free(scope, name: str) -> bool:
    """``name`` is bound nowhere a reference from ``scope`` could see (so importing it is safe)."""
    return scope.lookup_scope(name) is None
