"""``and``/``or``/``not`` and ``min``/``max`` on tracers -> ``jnp.logical_and``/``logical_or``/
``logical_not``, ``jnp.minimum``/``jnp.maximum`` (JAX106, unsafe).

Unsafe: ``a and b`` gives one of its operands, ``jnp.logical_and`` a boolean array, and
``min(a, b)`` a Python value where ``jnp.minimum`` gives an array; they agree on boolean and
scalar operands, which is what code that compiled would pass, but not on everything.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.fixes.declare import UNSAFE, Fix, replace
from jaxlint.fixes.names import code, jnp_reference


def _strip_parens(node):
    return node.with_changes(lpar=(), rpar=())


def boolop_fix(node: cst.BooleanOperation, scope) -> Optional[Fix]:
    ref = jnp_reference(scope)
    if ref is None:
        return None
    func = "logical_and" if isinstance(node.operator, cst.And) else "logical_or"
    text = f"{ref[0]}.{func}({code(_strip_parens(node.left)).strip()}, {code(_strip_parens(node.right)).strip()})"
    if node.lpar:
        text = "(" * len(node.lpar) + text + ")" * len(node.rpar)
    return replace(node, text, f"Replace with `jnp.{func}`", UNSAFE, ref[1])


def not_fix(node: cst.UnaryOperation, scope) -> Optional[Fix]:
    ref = jnp_reference(scope)
    if ref is None:
        return None
    text = f"{ref[0]}.logical_not({code(_strip_parens(node.expression)).strip()})"
    return replace(node, text, "Replace with `jnp.logical_not`", UNSAFE, ref[1])


def min_max_fix(node: cst.Call, which: str, scope) -> Optional[Fix]:
    if len(node.args) != 2 or any(a.keyword is not None or a.star for a in node.args):
        return None
    ref = jnp_reference(scope)
    if ref is None:
        return None
    func = "minimum" if which == "min" else "maximum"
    text = f"{ref[0]}.{func}({code(node.args[0].value).strip()}, {code(node.args[1].value).strip()})"
    return replace(node, text, f"Replace with `jnp.{func}`", UNSAFE, ref[1])
