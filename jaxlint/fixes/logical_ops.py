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


def _bare(node):
    return node.with_changes(lpar=(), rpar=())


def _jnp_call(node, scope, func: str, *operands, wrap=lambda text: text) -> Optional[Fix]:
    """``node`` replaced with ``jnp.<func>(operands)``, the module's own name for jax.numpy."""
    ref = jnp_reference(scope)
    if ref is None:
        return None
    text = f"{ref[0]}.{func}({', '.join(code(o).strip() for o in operands)})"
    return replace(node, wrap(text), f"Replace with `jnp.{func}`", UNSAFE, ref[1])


def boolop_fix(node: cst.BooleanOperation, scope) -> Optional[Fix]:
    func = "logical_and" if isinstance(node.operator, cst.And) else "logical_or"
    # the operation's own parentheses stay around the call
    return _jnp_call(node, scope, func, _bare(node.left), _bare(node.right), wrap=lambda text: "(" * len(node.lpar) + text + ")" * len(node.rpar))


def not_fix(node: cst.UnaryOperation, scope) -> Optional[Fix]:
    return _jnp_call(node, scope, "logical_not", _bare(node.expression))


def min_max_fix(node: cst.Call, which: str, scope) -> Optional[Fix]:
    if len(node.args) != 2 or any(a.keyword is not None or a.star for a in node.args):
        return None
    return _jnp_call(node, scope, "minimum" if which == "min" else "maximum", node.args[0].value, node.args[1].value)
