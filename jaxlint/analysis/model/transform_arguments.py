"""The arguments of a transform's application read from the source: ``static_argnums`` and
``static_argnames``, vmap's ``in_axes``, grad's ``argnums``, the keywords a ``functools.partial``
binds, and a name bound once to a literal (``AXES = (0, None)``).

Separate from ``transforms`` because reading literal arguments is its own concern: the finder
and the traced interpreter both parse them, and none of it needs the module's functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, FrozenSet, List, Optional, Sequence, Tuple

import libcst as cst

from jaxlint.analysis.syntax.nodes import int_value, keyword_value, string_literal
from jaxlint.analysis.syntax.scopes import Scope

if TYPE_CHECKING:
    from jaxlint.analysis.model.transforms import Application


class StaticSpec:
    """Parsed static_argnums / static_argnames of one application of a transform."""

    __slots__ = ("nums", "names", "nodes", "opaque")

    def __init__(self):
        self.nums: List[Tuple[int, cst.CSTNode]] = []
        self.names: List[Tuple[str, cst.CSTNode]] = []
        self.nodes: List[cst.CSTNode] = []
        self.opaque = False  # the spec is not a literal: we cannot know what is static


def parse_statics(args: Sequence[cst.Arg], spec: StaticSpec, scope: Optional[Scope] = None) -> None:
    """``static_argnums``/``static_argnames`` written as literals, or as names bound once to
    literals in ``scope`` (``STATIC = (1,)``)."""
    for a in args:
        if a.keyword is None:
            continue
        kw = a.keyword.value
        if kw in ("static_argnums", "static_broadcasted_argnums"):
            _parse_seq(literal_binding(a.value, scope), int_value, spec.nums, spec)
        elif kw == "static_argnames":
            _parse_seq(literal_binding(a.value, scope), string_literal, spec.names, spec)


def _parse_seq(value, conv, out, spec: StaticSpec) -> None:
    spec.nodes.append(value)
    if isinstance(value, (cst.Tuple, cst.List, cst.Set)):
        for el in value.elements:
            v = conv(el.value)
            if v is None:
                spec.opaque = True
            else:
                out.append((v, el.value))
        return
    if isinstance(value, cst.Name) and value.value == "None":
        return
    v = conv(value)
    if v is None:
        spec.opaque = True
    else:
        out.append((v, value))


def literal_binding(value, scope: Optional[Scope]):
    """The literal a name stands for (``AXES = (0, None)`` at module level, bound once, never
    rebound from a function nor changed in place), or the expression itself."""
    if not isinstance(value, cst.Name) or value.value == "None" or scope is None:
        return value
    found = scope.sole_binding(value.value)
    if found is None or value.value in found[1].imports:
        return value
    bound = found[0]
    if isinstance(bound, LITERALS) or isinstance(bound, cst.Name) and bound.value == "None":
        return bound
    return value


# What a name bound once may stand for: the displays and scalars transforms' arguments take.
LITERALS = (cst.Tuple, cst.List, cst.Integer, cst.SimpleString, cst.UnaryOperation)


def parse_in_axes(call_or_args, app: Application, pos_index: int = 1) -> None:
    """``in_axes`` given by keyword, or positionally at ``pos_index`` among the arguments
    (1 in ``vmap(f, in_axes)``; 0 in ``partial(vmap, in_axes)``), or through a name bound
    once to a literal."""
    value = keyword_value(call_or_args, "in_axes")
    if value is None:
        # positional in_axes: vmap(f, in_axes, out_axes)
        pos = [a for a in call_or_args if a.keyword is None]
        if len(pos) > pos_index:
            value = pos[pos_index].value
    if value is None:
        return
    value = literal_binding(value, app.site_scope)
    if isinstance(value, (cst.Tuple, cst.List)):
        none_pos = set()
        for i, el in enumerate(value.elements):
            v = el.value
            if isinstance(v, cst.Name) and v.value == "None":
                none_pos.add(i)
            elif isinstance(v, cst.Integer) or (
                isinstance(v, cst.UnaryOperation) and isinstance(v.expression, cst.Integer)
            ):
                continue
            else:
                app.opaque_axes = True
        app.unbatched = frozenset(none_pos)
    elif isinstance(value, cst.Name) and value.value == "None":
        app.opaque_axes = True
    elif not isinstance(value, (cst.Integer, cst.UnaryOperation)):
        app.opaque_axes = True


def not_none_keywords(args) -> FrozenSet[str]:
    return frozenset(
        a.keyword.value
        for a in args
        if a.keyword is not None and not (isinstance(a.value, cst.Name) and a.value.value == "None")
    )


def parse_argnums(args, scope: Optional[Scope] = None) -> Optional[Tuple[int, ...]]:
    """``argnums=1`` / ``argnums=(0, 2)`` of jax.grad and friends (the second positional
    argument too), also through a name bound once to a literal; None when it is not a
    literal."""
    node = None
    for i, a in enumerate(args):
        if a.keyword is not None and a.keyword.value == "argnums" or a.keyword is None and i == 0:
            node = a.value
    if node is None:
        return (0,)
    return _literal_ints(literal_binding(node, scope))


def converted_positions(args, nparams: int, scope: Optional[Scope] = None) -> Optional[Tuple[int, ...]]:
    """The positions ``jax.custom_jvp`` / ``custom_vjp`` converts to arrays: every positional
    parameter but its ``nondiff_argnums``; None when those are not a literal."""
    nondiff: Tuple[int, ...] = ()
    for a in args:
        if a.keyword is not None and a.keyword.value == "nondiff_argnums":
            found = _literal_ints(literal_binding(a.value, scope))
            if found is None:
                return None
            nondiff = found
    return tuple(i for i in range(nparams) if i not in nondiff and i - nparams not in nondiff)


def _literal_ints(node) -> Optional[Tuple[int, ...]]:
    """``1`` / ``(0, 2)`` / ``[0, 2]`` as integers; None when not a literal."""
    items = [el.value for el in node.elements] if isinstance(node, (cst.Tuple, cst.List)) else [node]
    out = tuple(int_value(it) for it in items)
    return None if None in out else out


def false_keywords(args) -> FrozenSet[str]:
    """Keywords bound to the literal False (``partial(f, numpy_resid=False)``): known flags."""
    return frozenset(a.keyword.value for a in args if a.keyword is not None and isinstance(a.value, cst.Name) and a.value.value == "False")
