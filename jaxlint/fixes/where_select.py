"""A traced ``if``/ternary that only selects between two values -> ``jnp.where`` (JAX101, unsafe).

Handled shapes: ``a if cond else b``; ``if cond: return a`` with ``else: return b`` or with
``return b`` as the next statement; ``if cond: y = a`` / ``else: y = b``.  A chained
comparison condition becomes ``(lo < x) & (x < hi)``.

Unsafe: ``jnp.where`` computes both values, so a branch that is costly, or fails or gives NaN
on the other branch's inputs (a ``log`` guarded by ``x > 0``, and its gradient), behaves
differently; ``lax.cond`` is then the right fix, and it is a choice the author makes.
Branches holding tuples, lists, dicts or ``None``, and statements with comments inside, get
no fix.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.fixes.declare import UNSAFE, AddImport, Fix, Replace, ReplaceSpan
from jaxlint.fixes.names import module_reference

_EMPTY = cst.Module([])
_NOT_ARRAYS = (cst.Tuple, cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp, cst.GeneratorExp)


def _code(node) -> str:
    return _EMPTY.code_for_node(node)


def condition_code(test: cst.BaseExpression) -> str:
    """``test`` as an array condition: ``lo < x < hi`` -> ``(lo < x) & (x < hi)``."""
    if isinstance(test, cst.Comparison) and len(test.comparisons) > 1:
        parts = []
        left = test.left
        for c in test.comparisons:
            parts.append(f"({_code(left).strip()} {_code(c.operator).strip()} {_code(c.comparator).strip()})")
            left = c.comparator
        return " & ".join(parts)
    return _code(test).strip()


def _value_ok(expr) -> bool:
    if expr is None or isinstance(expr, _NOT_ARRAYS):
        return False
    return not (isinstance(expr, cst.Name) and expr.value == "None")


def _where(jnp: str, test, a, b) -> str:
    return f"{jnp}.where({condition_code(test)}, {_code(a).strip()}, {_code(b).strip()})"


def _single(block) -> Optional[cst.BaseSmallStatement]:
    if not isinstance(block, cst.IndentedBlock) or len(block.body) != 1:
        return None
    line = block.body[0]
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
        return None
    return line.body[0]


def _comments(*nodes) -> str:
    """The comments inside ``nodes`` (the first one's leading lines excepted: they stay above
    the replacement), as one trailing comment, so that the fix drops none."""
    found = []
    for i, node in enumerate(nodes):
        if i == 0 and hasattr(node, "leading_lines"):
            node = node.with_changes(leading_lines=())
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, cst.Comment):
                found.append(n.value)
            else:
                stack.extend(reversed(n.children))
    return "".join("  " + c for c in found)


def _reference(scope):
    return module_reference(scope, "jax.numpy", "jnp")


def where_fix_ifexp(e: cst.IfExp, scope) -> Optional[Fix]:
    if isinstance(e.body, cst.IfExp) or isinstance(e.orelse, cst.IfExp):
        # A chain (``a if p else b if q else c``) is fixed from the inside out, one link per
        # round of ``--fix``: the inner ternary's fix and this one's would overlap, and writing
        # this one's text now would cost each link of a long chain the whole chain's length.
        return None
    if not (_value_ok(e.body) and _value_ok(e.orelse)) or _comments(e):
        return None
    ref = _reference(scope)
    if ref is None:
        return None
    text = _where(ref[0], e.test, e.body, e.orelse)
    return Fix("Replace with `jnp.where`", (Replace(e, text),) + tuple(AddImport(i) for i in ref[1]), UNSAFE)


def where_fix_if(st: cst.If, following: Optional[cst.CSTNode], scope) -> Optional[Fix]:
    """``following``: the statement after ``st`` in its block (for ``if c: return a`` /
    ``return b``)."""
    if isinstance(st.orelse, cst.If):
        return None
    first = _single(st.body)
    ref = _reference(scope)
    if first is None or ref is None:
        return None
    jnp, imports = ref
    extra = tuple(AddImport(i) for i in imports)
    if st.orelse is not None:
        second = _single(st.orelse.body)
        if second is None:
            return None
        if isinstance(first, cst.Return) and isinstance(second, cst.Return):
            if _value_ok(first.value) and _value_ok(second.value):
                text = f"return {_where(jnp, st.test, first.value, second.value)}{_comments(st)}"
                return Fix("Replace with `return jnp.where(...)`", (Replace(st, text),) + extra, UNSAFE)
            return None
        if isinstance(first, cst.Assign) and isinstance(second, cst.Assign):
            if len(first.targets) == len(second.targets) == 1:
                t1, t2 = first.targets[0].target, second.targets[0].target
                if isinstance(t1, cst.Name) and isinstance(t2, cst.Name) and t1.value == t2.value:
                    if _value_ok(first.value) and _value_ok(second.value):
                        text = f"{t1.value} = {_where(jnp, st.test, first.value, second.value)}{_comments(st)}"
                        return Fix(f"Replace with `{t1.value} = jnp.where(...)`", (Replace(st, text),) + extra, UNSAFE)
        return None
    # if c: return a
    # return b
    if not isinstance(first, cst.Return) or not isinstance(following, cst.SimpleStatementLine):
        return None
    if len(following.body) != 1 or not isinstance(following.body[0], cst.Return):
        return None
    b = following.body[0].value
    if not (_value_ok(first.value) and _value_ok(b)):
        return None
    # The if and the return after it become one return.
    text = f"return {_where(jnp, st.test, first.value, b)}{_comments(st, following)}"
    return Fix("Replace with `return jnp.where(...)`", (ReplaceSpan(st, following, text),) + extra, UNSAFE)


def next_statement(root: cst.CSTNode, st: cst.CSTNode) -> Optional[cst.CSTNode]:
    """The statement after ``st`` in the block of ``root`` (a function) that holds it."""
    stack = [root]
    while stack:
        node = stack.pop()
        body = getattr(node, "body", None)
        if isinstance(body, (list, tuple)):
            for i, s in enumerate(body):
                if s is st:
                    return body[i + 1] if i + 1 < len(body) else None
        if isinstance(node, cst.BaseCompoundStatement) or isinstance(node, (cst.IndentedBlock, cst.Else, cst.ExceptHandler, cst.Finally)):
            stack.extend(c for c in node.children if isinstance(c, (cst.BaseSuite, cst.BaseCompoundStatement, cst.Else, cst.ExceptHandler, cst.Finally)))
    return None
