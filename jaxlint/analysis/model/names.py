"""Names through the module's imports: the one resolver every part of the analysis asks.

``import jax as jx; jx.jit`` and ``from jax import jit`` both resolve to ``jax.jit``; the many
import paths of one API (``jax._src.api.jit``, ``flax.experimental.nnx``) are mapped to the name
the tables use.  A local name that shadows an import resolves to None: it is not the API.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.syntax.nodes import dotted_name, head_name
from jaxlint.analysis.syntax.scopes import Scope

# What binds arguments ahead of a call, wherever it comes from: ``functools.partial``, and
# ``jax.tree_util.Partial``, a subclass of it that binds the same way (it is also a pytree:
# its bound arguments are leaves, its function the static aux data; see
# jaxlint/analysis/traced/tree_partials.py for what that changes under a transform).
PARTIAL = frozenset({"functools.partial", "jax.tree_util.Partial"})


# The first components of every name that ``normalise`` maps (``jax.``, ``flax.``).
_MAPPED_ROOTS = ("jax.", "flax.")


def normalise(qual: Optional[str]) -> Optional[str]:
    """Map the many import paths of one API to a canonical name."""
    if qual is None:
        return None
    if not qual.startswith(_MAPPED_ROOTS) or qual.startswith("jax.experimental.jax2tf"):
        return qual
    for old, new in (
        ("jax._src.api.", "jax."),
        ("jax._src.core.", "jax.core."),
        ("jax.api.", "jax."),
        ("jax._src.lax.control_flow.", "jax.lax."),
        ("jax._src.lax.lax.", "jax.lax."),
        ("jax.numpy.lax.", "jax.lax."),
        ("jax.tree_util.", "jax.tree_util."),
        ("jax.experimental.pallas.tpu.", "jax.experimental.pallas."),
        ("flax.experimental.nnx.", "flax.nnx."),
    ):
        if qual.startswith(old):
            return new + qual[len(old) :]
    return qual


def resolve(expr, scope: Scope) -> Optional[str]:
    """The qualified name an expression refers to through the module's imports."""
    head = head_name(expr)
    if head is None:
        return None
    q = scope.resolve_import(head)
    if q is None:
        return None
    rest = dotted_name(expr).partition(".")[2]
    return normalise(q + ("." + rest if rest else ""))


def decorator_name(dec, scope: Scope) -> Optional[str]:
    """What a decorator applies, resolved: ``jax.jit`` of ``@jax.jit``, ``@jax.jit(...)`` and
    ``@partial(jax.jit, ...)``."""
    q = resolve(dec, scope)
    if q is None and isinstance(dec, cst.Call):
        q = resolve(dec.func, scope)
        if q in PARTIAL and dec.args:
            q = resolve(dec.args[0].value, scope)
    return q
