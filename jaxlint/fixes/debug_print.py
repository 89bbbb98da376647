"""``print(...)`` in traced code -> ``jax.debug.print(...)`` with its own placeholders (JAX302).

``print`` joins its arguments with spaces; ``jax.debug.print`` formats one string with
``str.format`` on the runtime values.  So every piece of text that ``print`` would have
formatted from a value while tracing is translated into a placeholder of that one format, with
the value passed as an argument:

- a string literal becomes text of the format (its braces doubled);
- an f-string's text stays text and each ``{expr}`` / ``{expr:spec}`` becomes ``{}`` /
  ``{:spec}`` with ``expr`` passed;
- ``"...".format(...)`` on a string literal keeps its fields, renumbered into the one format:
  ``{0} {0}`` passes its argument once and refers to it twice, ``{name}`` refers to the keyword
  argument's value, a literal format spec is kept;
- ``"%s %.3f" % (a, b)`` becomes ``{} {:.3f}`` (``%s`` and the float conversions, whose
  ``str.format`` spelling prints the same);
- ``str(x)`` becomes ``{}`` and ``format(x, "spec")`` ``{:spec}``;
- any other argument is passed for a ``{}``, unless the analysis says it is text made from a
  traced value or it is a formatting expression jaxlint cannot translate (``fmt.format(...)``
  on a variable, ``"a" + str(x)``): then there is no fix, since passing that text would still
  format the tracer while tracing.

Anything whose output could differ gets no fix: ``sep=``/``end=``/``file=``, ``*args``,
conversions (``!r``: the callback sees NumPy arrays, whose repr differs), ``{x=}``, nested
specs, attribute or index fields (``{0.shape}``), unused or missing arguments, bytes, and text
with literal braces: JAX (0.10) decides whether a format has placeholders from its first piece
only, so ``"a {{b}} = {}"`` would be printed unformatted.
"""

from __future__ import annotations

import ast
import json
import re
import string
from typing import Collection, List, Optional

import libcst as cst

from jaxlint.analysis.syntax.nodes import string_value
from jaxlint.fixes.names import code as _code


class _Format:
    """One format under construction: text with ``\\0`` markers for fields, and the argument
    expressions the fields refer to."""

    def __init__(self):
        self.pieces: List[object] = []  # str (format text, braces doubled) or (arg index, spec)
        self.args: List[str] = []

    def text(self, s: str) -> None:
        self.pieces.append(s.replace("{", "{{").replace("}", "}}"))

    def new_arg(self, expr: str) -> int:
        self.args.append(expr)
        return len(self.args) - 1

    def field(self, arg: int, spec: str = "") -> None:
        self.pieces.append((arg, spec))

    def render(self) -> Optional[str]:
        fields = [p for p in self.pieces if isinstance(p, tuple)]
        used = [a for a, _ in fields]
        if sorted(set(used)) != list(range(len(self.args))):
            return None  # an argument is not printed: dropping it could drop an effect
        # Automatic numbering when each argument is printed once, in order; else explicit.
        auto = used == list(range(len(self.args)))
        out = []
        for p in self.pieces:
            if isinstance(p, str):
                out.append(p)
            else:
                arg, spec = p
                out.append("{" + ("" if auto else str(arg)) + (":" + spec if spec else "") + "}")
        return "".join(out)


def _plain_spec(spec: str) -> bool:
    return "{" not in spec and "}" not in spec


def _add_fstring(node: cst.FormattedString, fmt: _Format) -> bool:
    prefix = node.prefix.lower().replace("f", "")
    if "b" in prefix:
        return False
    quote = node.start[len(node.prefix):]
    for part in node.parts:
        if isinstance(part, cst.FormattedStringText):
            # Read without the f prefix, "{{" would stay "{{": undo it before doubling again.
            try:
                text = ast.literal_eval(prefix + quote + part.value + quote)
            except (SyntaxError, ValueError):
                return False
            fmt.text(text.replace("{{", "{").replace("}}", "}"))
            continue
        if part.conversion is not None or part.equal is not None:
            return False
        spec = ""
        if part.format_spec:
            if not all(isinstance(s, cst.FormattedStringText) for s in part.format_spec):
                return False
            spec = "".join(s.value for s in part.format_spec)
            if not _plain_spec(spec):
                return False
        fmt.field(fmt.new_arg(_code(part.expression)), spec)
    return True


def _add_format_call(node: cst.Call, template: str, fmt: _Format) -> bool:
    if any(a.star for a in node.args):
        return False
    positional = [a for a in node.args if a.keyword is None]
    keywords = {a.keyword.value: a for a in node.args if a.keyword is not None}
    if len(positional) + len(keywords) != len(node.args):
        return False
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:
        return False
    # Each argument of the call is passed once, in the call's order (its evaluation order).
    slots = {}  # positional index or keyword name -> argument index in fmt
    position = 0
    for a in node.args:
        key_of = a.keyword.value if a.keyword is not None else position
        if a.keyword is None:
            position += 1
        slots[key_of] = fmt.new_arg(_code(a.value))
    used = set()
    auto = 0
    numbering = None  # "auto" or "explicit": str.format refuses a mix
    for literal, name, spec, conv in parsed:
        if literal:
            fmt.text(literal)
        if name is None:
            continue
        if conv or not _plain_spec(spec or ""):
            return False
        if name == "":
            key: object = auto
            auto += 1
            kind = "auto"
        elif name.isdigit():
            key = int(name)
            kind = "explicit"
        elif name.isidentifier():
            key = name
            kind = None
        else:
            return False  # {0.shape}, {a[0]}: attribute and index fields
        if kind is not None:
            if numbering not in (None, kind):
                return False
            numbering = kind
        if key not in slots:
            return False  # a missing argument: str.format raises
        used.add(key)
        fmt.field(slots[key], spec or "")
    # Every argument of the call is printed (else its evaluation would be dropped).
    return len(used) == len(slots)


# A %-conversion whose str.format spelling prints the same: %s, and the float conversions with
# their flags, width and precision.
_PERCENT = re.compile(r"%(?:(%)|(s)|([-+ 0#]*)(\d*)(\.\d+)?([eEfFgG]))")


def _percent_spec(flags: str, width: str, precision: str, kind: str) -> str:
    align = "<" if "-" in flags else ""
    sign = "+" if "+" in flags else (" " if " " in flags else "")
    alt = "#" if "#" in flags else ""
    zero = "0" if "0" in flags and not align and width else ""
    return f"{align}{sign}{alt}{zero}{width}{precision or ''}{kind}"


def _add_percent(node: cst.BinaryOperation, template: str, fmt: _Format, is_text: bool) -> bool:
    """``is_text``: the analysis knows the expression is text made from a traced value; a single
    operand that is not a tuple display is then that traced value (at run time a tuple there
    would be several operands, printed differently)."""
    right = node.right
    if isinstance(right, cst.Tuple):
        if any(isinstance(e, cst.StarredElement) for e in right.elements):
            return False
        values = [e.value for e in right.elements]
    elif isinstance(right, (cst.Dict, cst.DictComp)):
        return False
    else:
        values = [right]
    pos = 0
    used = 0
    for m in _PERCENT.finditer(template):
        fmt.text(template[pos : m.start()])
        pos = m.end()
        if m.group(1):
            fmt.text("%")
            continue
        if used >= len(values):
            return False
        spec = "" if m.group(2) else _percent_spec(m.group(3), m.group(4), m.group(5), m.group(6))
        fmt.field(fmt.new_arg(_code(values[used])), spec)
        used += 1
    rest = template[pos:]
    if "%" in rest or "%" in re.sub(_PERCENT, "", template):
        return False  # a conversion jaxlint does not translate (%d, %r, %(name)s, %*d, ...)
    # A single operand must be the one value: a tuple at run time would be several.
    if used != len(values) or (not isinstance(right, cst.Tuple) and not is_text):
        return False
    fmt.text(rest)
    return True


def _is_formatting(node) -> bool:
    """An expression that builds text from values: ``x.format(...)``, ``a % b`` on text, ``+``
    with a string, ``str()``/``repr()``/``format()``, an f-string inside something else."""
    if isinstance(node, cst.Call):
        f = node.func
        if isinstance(f, cst.Attribute) and f.attr.value in ("format", "format_map", "join"):
            return True
        if isinstance(f, cst.Name) and f.value in ("str", "repr", "format", "ascii"):
            return True
    if isinstance(node, cst.BinaryOperation):
        if isinstance(node.operator, cst.Modulo) and isinstance(node.left, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
            return True
        if isinstance(node.operator, cst.Add):
            return True  # "a" + str(x): cannot tell text from numbers here, so no fix
    if isinstance(node, (cst.FormattedString, cst.ConcatenatedString)):
        return True
    return False


def _add_argument(v, fmt: _Format, is_text: bool) -> bool:
    value = string_value(v)
    if value is not None:
        fmt.text(value)
        return True
    if isinstance(v, cst.FormattedString):
        return _add_fstring(v, fmt)
    if isinstance(v, cst.Call) and not any(a.star for a in v.args):
        func = v.func
        if isinstance(func, cst.Attribute) and func.attr.value == "format":
            template = string_value(func.value)
            return template is not None and _add_format_call(v, template, fmt)
        if isinstance(func, cst.Name) and func.value in ("str", "format") and v.args and all(a.keyword is None for a in v.args):
            if func.value == "str" and len(v.args) == 1:
                fmt.field(fmt.new_arg(_code(v.args[0].value)))
                return True
            if func.value == "format" and len(v.args) == 2:
                spec = string_value(v.args[1].value)
                if spec is not None and _plain_spec(spec):
                    fmt.field(fmt.new_arg(_code(v.args[0].value)), spec)
                    return True
            return False
    if isinstance(v, cst.BinaryOperation) and isinstance(v.operator, cst.Modulo):
        template = string_value(v.left)
        if template is not None:
            return _add_percent(v, template, fmt, is_text)
    if is_text or _is_formatting(v):
        return False
    fmt.field(fmt.new_arg(_code(v)))
    return True


def debug_print_call(node: cst.Call, jax_name: str, text_args: Collection[int] = ()) -> Optional[str]:
    """The ``jax.debug.print`` call equivalent to ``print`` call ``node``, or None.

    ``text_args``: positions of arguments the analysis knows to be text formatted from a traced
    value; those must be translated, never passed as they are."""
    fmt = _Format()
    for i, a in enumerate(node.args):
        if a.keyword is not None or a.star:
            return None
        if i:
            fmt.text(" ")
        if not _add_argument(a.value, fmt, i in text_args):
            return None
    if not fmt.args:
        return None
    text = fmt.render()
    if text is None or "{{" in text or "}}" in text:
        return None
    literal = json.dumps(text, ensure_ascii=False)  # JSON's escapes are Python's too
    return f"{jax_name}.debug.print(" + ", ".join([literal] + fmt.args) + ")"
