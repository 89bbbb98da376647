"""Small questions about syntax nodes that the interpreter asks often."""

from __future__ import annotations

from typing import Iterator, List, Optional, Tuple

import libcst as cst


def is_string_literal(e) -> bool:
    if isinstance(e, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return True
    if isinstance(e, (cst.Tuple, cst.List, cst.Set)) and e.elements:
        return all(isinstance(el.value, (cst.SimpleString, cst.ConcatenatedString)) for el in e.elements)
    return False

def is_none_literal(e) -> bool:
    return isinstance(e, cst.Name) and e.value == "None"

# ``literal_value`` of an expression that is no Python literal
NOT_LITERAL = object()


def literal_value(e):
    """The value of a Python literal: a number (signed), a string, True, False or None;
    NOT_LITERAL for any other expression."""
    if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, (cst.Minus, cst.Plus)):
        v = literal_value(e.expression)
        if not isinstance(v, (int, float, complex)) or isinstance(v, bool):
            return NOT_LITERAL
        return -v if isinstance(e.operator, cst.Minus) else v
    if isinstance(e, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString)):
        try:
            v = e.evaluated_value
        except Exception:  # noqa: BLE001 - a literal LibCST cannot evaluate proves nothing
            return NOT_LITERAL
        return NOT_LITERAL if v is None else v  # (an f-string among concatenated parts)
    if isinstance(e, cst.Name) and e.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[e.value]
    return NOT_LITERAL


def int_value(e) -> Optional[int]:
    """The value of an integer literal (``3``, ``-1``, ``0x10``), else None."""
    v = literal_value(e)
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def const_index(s: cst.SubscriptElement) -> Optional[int]:
    return int_value(s.slice.value) if isinstance(s.slice, cst.Index) else None

def string_value(node) -> Optional[str]:
    try:
        v = node.evaluated_value
    except Exception:  # noqa: BLE001
        return None
    return v if isinstance(v, str) else None


def string_literal(e) -> Optional[str]:
    """The text of a plain string literal (not an f-string or a concatenation), else None."""
    return string_value(e) if isinstance(e, cst.SimpleString) else None


# ``argument_for`` when a ``*args``/``**kwargs`` argument comes first and may carry the parameter
STARRED = object()


def arguments_by_position(args, names: List[str], start: int = 0) -> Iterator[Tuple[cst.Arg, Optional[str]]]:
    """(argument, the parameter it lands on, or None) for each of a call's arguments ``args``, up
    to the first ``*args``/``**kwargs``; ``names``: the positional parameters, filled from ``start``."""
    i = start
    for a in args:
        if a.star:
            return
        if a.keyword is not None:
            yield a, a.keyword.value
        else:
            yield a, names[i] if i < len(names) else None
            i += 1


def received_arguments(ahead, args) -> Tuple[cst.Arg, ...]:
    """The arguments a callee receives when ``functools.partial`` bound ``ahead`` and the call
    passes ``args``: the partial's positional arguments first, then the call's, then the
    partial's keywords that the call does not replace, then the call's."""
    given = {a.keyword.value for a in args if a.keyword is not None}
    bound = [a for a in ahead if a.keyword is None or a.keyword.value not in given]
    return tuple(a for keyword in (False, True) for part in (bound, args) for a in part if (a.keyword is not None) == keyword)


def keyword_value(args, name: str) -> Optional[cst.BaseExpression]:
    """What the arguments ``args`` pass by the keyword ``name`` (Python allows it once), else None."""
    return next((a.value for a in args if a.keyword is not None and a.keyword.value == name), None)


def argument_at(args, position: int, keyword: str) -> Optional[cst.BaseExpression]:
    """What ``args`` pass for the parameter at ``position`` named ``keyword``: by keyword, or
    by position when no star argument comes before it; else None."""
    found = keyword_value(args, keyword)
    if found is None:
        for i, a in enumerate(args):
            if a.star or a.keyword is not None:
                break
            if i == position:
                return a.value
    return found


def function_arguments(args, fn_args, scope=None) -> List[cst.BaseExpression]:
    """The expressions ``args`` pass for the functions a transform runs (``fn_args``: the
    (position, keyword) of each), the branches of a list or tuple (``lax.switch``) one by one;
    with ``scope``, also of a name bound there once to the list (``branches = [f, g]``)."""
    out: List[cst.BaseExpression] = []
    for position, keyword in fn_args:
        v = argument_at(args, position, keyword)
        if scope is not None and isinstance(v, cst.Name):
            v = scope.sole_value(v.value) or v
        if isinstance(v, (cst.List, cst.Tuple)):
            out.extend(el.value for el in v.elements)
        elif v is not None:
            out.append(v)
    return out


def argument_for(call: cst.Call, names: List[str], name: str):
    """The argument of ``call`` that lands on parameter ``name`` (``names``: the positional
    parameters as the call fills them): an Arg, None when the call leaves the parameter out, or
    STARRED when a star argument before it may carry it."""
    for a, lands_on in arguments_by_position(call.args, names):
        if lands_on == name:
            return a
    return STARRED if any(a.star for a in call.args) else None


def block_exits(block) -> bool:
    """The block ends in ``return`` or ``raise``: past an ``if`` with no ``else`` whose body it
    is, the test was false."""
    body = block.body if isinstance(block, (cst.IndentedBlock, cst.SimpleStatementSuite)) else []
    if not body:
        return False
    last = body[-1]
    if isinstance(last, cst.SimpleStatementLine) and last.body:
        return isinstance(last.body[-1], (cst.Return, cst.Raise))
    return False


def simple_statements(block) -> Iterator[cst.BaseSmallStatement]:
    """The small statements of the simple statement lines directly in ``block``, in order: an
    indented block's own lines, not those of the compound statements in it (a one-line suite,
    or anything but a block, gives none)."""
    for st in block.body if isinstance(block, cst.IndentedBlock) else ():
        if isinstance(st, cst.SimpleStatementLine):
            yield from st.body


def named_params(params: cst.Parameters) -> List[cst.Param]:
    """The parameters bound by name, in order: positional-only, positional, keyword-only."""
    return list(params.posonly_params) + list(params.params) + list(params.kwonly_params)


def parameter_names(params: cst.Parameters) -> List[str]:
    """Every name a parameter list binds, in order: positional, keyword-only, ``*args``,
    ``**kwargs``."""
    names = [x.name.value for x in named_params(params)]
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            names.append(star.name.value)
    return names


def dotted_name(expr) -> Optional[str]:
    """``a.b.c`` -> "a.b.c"; None for anything that is not a plain dotted name."""
    # Exact type tests: LibCST's node classes are abstract base classes, for which a failed
    # ``isinstance`` goes through ``ABCMeta.__instancecheck__`` (one of the analysis' most
    # frequent calls); Attribute and Name have no subclasses.
    if type(expr) is _NAME:
        return expr.value
    parts = []
    while type(expr) is _ATTRIBUTE:
        parts.append(expr.attr.value)
        expr = expr.value
    if type(expr) is _NAME:
        parts.append(expr.value)
        return ".".join(reversed(parts))
    return None


def head_name(expr) -> Optional[str]:
    """The first name of a plain dotted name (``a`` of ``a.b.c``); None for anything else."""
    while type(expr) is _ATTRIBUTE:
        expr = expr.value
    return expr.value if type(expr) is _NAME else None


_NAME = cst.Name
_ATTRIBUTE = cst.Attribute


def target_names(target) -> List[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        out: List[str] = []
        for el in target.elements:
            out.extend(target_names(el.value))
        return out
    if isinstance(target, cst.StarredElement):
        return target_names(target.value)
    return []


def base_name(expr) -> Optional[str]:
    """The variable a subscript/attribute chain starts from: ``a.b[0].c`` -> "a"."""
    while isinstance(expr, (cst.Attribute, cst.Subscript)):
        expr = expr.value
    if isinstance(expr, cst.Name):
        return expr.value
    return None


def parallel_values(target, value):
    """The element of ``value`` that each element of the ``target`` tuple is bound to, when both
    are tuples or lists of the same length with nothing starred."""
    if not isinstance(value, (cst.Tuple, cst.List)) or len(value.elements) != len(target.elements):
        return None
    if any(isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements)):
        return None
    return [e.value for e in value.elements]



def subscript_key(node) -> Optional[str]:
    """The string a subscript indexes with, written out (``d["lr"]``), else None."""
    index = node.slice[0].slice if isinstance(node, cst.Subscript) and len(node.slice) == 1 else None
    return string_literal(index.value) if isinstance(index, cst.Index) else None
