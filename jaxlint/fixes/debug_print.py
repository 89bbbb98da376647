"""``print(...)`` in traced code -> ``jax.debug.print(...)`` with ``{}`` placeholders (JAX302).

``print`` joins its arguments with spaces; ``jax.debug.print`` formats one string with
``str.format`` on the runtime values.  So each string literal becomes text of the format (its
braces doubled), each f-string's text stays text and each of its ``{expr}`` becomes a ``{}``
with ``expr`` passed as an argument, and ``"...{}...".format(a)`` keeps its placeholders.
Anything whose output could differ (``sep=``/``end=``/``file=``, ``*args``, format specs and
conversions, ``{x=}``, bytes) gets no fix, and so does text with literal braces: JAX
(0.10) decides whether a format has placeholders from its first piece only, so
``"a {{b}} = {}"`` would be printed unformatted.
"""

from __future__ import annotations

import ast
import json
import string
from typing import List, Optional, Tuple

import libcst as cst

_EMPTY = cst.Module([])


def _code(node) -> str:
    return _EMPTY.code_for_node(node)


def _literal_text(node: cst.SimpleString) -> Optional[str]:
    try:
        value = node.evaluated_value
    except Exception:  # noqa: BLE001 - odd literals get no fix
        return None
    if not isinstance(value, str):
        return None
    return value.replace("{", "{{").replace("}", "}}")


def _fstring_parts(node: cst.FormattedString) -> Optional[Tuple[str, List[str]]]:
    prefix = node.prefix.lower().replace("f", "")
    if "b" in prefix:
        return None
    quote = node.start[len(node.prefix):]
    text, args = [], []
    for part in node.parts:
        if isinstance(part, cst.FormattedStringText):
            # Without the f prefix the text reads the same, except that "{{" stays "{{", which
            # is what a format string needs.
            try:
                text.append(ast.literal_eval(prefix + quote + part.value + quote))
            except (SyntaxError, ValueError):
                return None
        else:
            if part.conversion is not None or part.format_spec is not None or part.equal is not None:
                return None
            text.append("{}")
            args.append(_code(part.expression))
    return "".join(text), args


def _format_call_parts(node: cst.Call) -> Optional[Tuple[str, List[str]]]:
    func = node.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "format" and isinstance(func.value, cst.SimpleString)):
        return None
    try:
        template = func.value.evaluated_value
    except Exception:  # noqa: BLE001
        return None
    if not isinstance(template, str) or any(a.keyword is not None or a.star for a in node.args):
        return None
    try:
        fields = [f for f in string.Formatter().parse(template) if f[1] is not None]
    except ValueError:
        return None
    if len(fields) != len(node.args) or any(name != "" or spec or conv for _, name, spec, conv in fields):
        return None
    return template, [_code(a.value) for a in node.args]


def debug_print_call(node: cst.Call, jax_name: str) -> Optional[str]:
    """The ``jax.debug.print`` call equivalent to ``print`` call ``node``, or None."""
    fmt: List[str] = []
    args: List[str] = []
    for a in node.args:
        if a.keyword is not None or a.star:
            return None
        v = a.value
        if isinstance(v, cst.SimpleString):
            text = _literal_text(v)
            if text is None:
                return None
            fmt.append(text)
            continue
        parts = None
        if isinstance(v, cst.FormattedString):
            parts = _fstring_parts(v)
            if parts is None:
                return None
        elif isinstance(v, cst.Call):
            parts = _format_call_parts(v)
        if parts is not None:
            fmt.append(parts[0])
            args.extend(parts[1])
        else:
            fmt.append("{}")
            args.append(_code(v))
    text = " ".join(fmt)
    if not args or "{{" in text or "}}" in text:
        return None
    literal = json.dumps(text, ensure_ascii=False)  # JSON's escapes are Python's too
    return f"{jax_name}.debug.print(" + ", ".join([literal] + args) + ")"
