"""How a rule declares a fix: what to change, and how safe the change is.

A rule hands ``ctx.report(..., autofix=Fix(...))`` one or more edits, each tied to a node of
the module it is checking: ``Replace(node, new)`` swaps the node's source for ``new`` (a string
or a LibCST node, rendered with the module's formatting), ``AddImport("import jax.numpy as
jnp")`` adds an import after the module's leading imports unless an identical one is there.
The engine turns the nodes into line/column spans when the finding is built
(:func:`materialise`), so a fix travels with its finding through the cache, the formats and the
language server as plain data.

A rule that already reports an exact ``suggestion=`` text for the flagged node needs no more
than a ``fix_safety`` class attribute: that text becomes its fix.

Safety follows Ruff's *Fix safety*: a ``safe`` fix keeps what the code meant and is applied by
``--fix``; an ``unsafe`` one may change behaviour (both branches of ``jnp.where`` run, ``&`` is
not ``and`` on non-booleans) and is applied only with ``--unsafe-fixes``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple, Union

import libcst as cst

from jaxlint.fixes.names import import_edit

SAFE = "safe"
UNSAFE = "unsafe"
SAFETIES = (SAFE, UNSAFE)


@dataclass(frozen=True)
class Replace:
    node: cst.CSTNode
    new: Union[str, cst.CSTNode]


@dataclass(frozen=True)
class ReplaceSpan:
    """From the start of ``first`` to the end of ``last`` (statements of one block)."""

    first: cst.CSTNode
    last: cst.CSTNode
    new: str


@dataclass(frozen=True)
class AddImport:
    """``statement`` (one line, no newline) added after the leading imports of the module."""

    statement: str


@dataclass(frozen=True)
class Fix:
    title: str
    edits: Tuple[Union[Replace, ReplaceSpan, AddImport], ...]
    safety: str = SAFE

    def __post_init__(self):
        if self.safety not in SAFETIES:
            raise ValueError(f"fix safety must be one of {SAFETIES}, not {self.safety!r}")


def replace(node: cst.CSTNode, new: Union[str, cst.CSTNode], title: str, safety: str = SAFE, imports: Tuple[str, ...] = ()) -> Fix:
    """The common case: one node replaced, perhaps with imports the new code needs."""
    return Fix(title, (Replace(node, new),) + tuple(AddImport(i) for i in imports), safety)


def _edit(line: int, column: int, end_line: int, end_column: int, text: str) -> Dict[str, Any]:
    # The same shape as Finding.suggestion: 1-based lines and columns, end exclusive.
    return {"text": text, "line": line, "column": column, "end_line": end_line, "end_column": end_column}


def materialise(fix: Fix, module: cst.Module, positions) -> Optional[Dict[str, Any]]:
    """The fix as plain data, ``{"title", "safety", "edits": [...]}``; None when a node has no
    position (it is not part of this module)."""
    edits: List[Dict[str, Any]] = []
    for e in fix.edits:
        if isinstance(e, Replace):
            rng = positions.get(e.node)
            if rng is None:
                return None
            text = e.new if isinstance(e.new, str) else module.code_for_node(e.new)
            edits.append(_edit(rng.start.line, rng.start.column + 1, rng.end.line, rng.end.column + 1, text))
        elif isinstance(e, ReplaceSpan):
            a, b = positions.get(e.first), positions.get(e.last)
            if a is None or b is None:
                return None
            edits.append(_edit(a.start.line, a.start.column + 1, b.end.line, b.end.column + 1, e.new))
        else:
            edit = import_edit(module, positions, e.statement)
            if edit is not None:
                edits.append(_edit(*edit))
    return {"title": fix.title, "safety": fix.safety, "edits": edits}


def from_suggestion(suggestion: Dict[str, Any], title: str, safety: str) -> Dict[str, Any]:
    """A rule's exact ``suggestion`` (text for the flagged span) as its fix."""
    edit = {k: suggestion[k] for k in ("text", "line", "column", "end_line", "end_column")}
    return {"title": title, "safety": safety, "edits": [edit]}
