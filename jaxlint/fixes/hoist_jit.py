"""``jax.jit(lambda ...)`` created in every iteration of a loop (JAX401) -> jitted once, before
the loop, under a new name (unsafe: the lambda is now built before the loop runs, so it must
not depend on what the loop changes; the rule only offers it when the lambda reads none of
the loop's variables)."""

from __future__ import annotations

from typing import Iterable, Optional

import libcst as cst

from jaxlint.fixes.declare import UNSAFE, Fix, ReplaceSpan


def _statements(body) -> Iterable[cst.CSTNode]:
    if isinstance(body, (cst.IndentedBlock, cst.SimpleStatementSuite)):
        return body.body
    return ()


def _contains(node: cst.CSTNode, target: cst.CSTNode) -> bool:
    found = False

    class _Find(cst.CSTVisitor):
        def on_visit(self, n) -> bool:
            nonlocal found
            if n is target:
                found = True
            return not found

    node.visit(_Find())
    return found


def innermost_loop(body, target: cst.CSTNode) -> Optional[cst.CSTNode]:
    """The innermost ``for``/``while`` statement of ``body`` (a function's or the module's
    statements) that contains ``target``, not entering nested functions or classes."""
    found = None
    todo = list(body)
    while todo:
        st = todo.pop()
        if isinstance(st, (cst.FunctionDef, cst.ClassDef)) or not _contains(st, target):
            continue
        if isinstance(st, (cst.For, cst.While)):
            found = st
        for block in (getattr(st, "body", None), getattr(getattr(st, "orelse", None), "body", None)):
            todo.extend(_statements(block))
        for h in getattr(st, "handlers", ()) or ():
            todo.extend(_statements(h.body))
        if isinstance(st, cst.If) and isinstance(st.orelse, cst.If):
            todo.append(st.orelse)
    return found


def hoist_fix(call: cst.Call, loop: cst.CSTNode, column: int, taken: Iterable[str], tail: str = "") -> Optional[Fix]:
    """``column``: the loop statement's 0-based column; ``taken``: names already in use;
    ``tail``: what follows the loop's range on its last line (a comment stays where it is)."""
    taken = set(taken)
    name = next(f"jitted_{i}" if i else "jitted" for i in range(100) if (f"jitted_{i}" if i else "jitted") not in taken)
    module = cst.Module([])
    new_loop = loop.deep_replace(call, cst.Name(name))
    indent = " " * column
    lines = module.code_for_node(new_loop).rstrip("\n").split("\n")
    loop_text = "\n".join([lines[0]] + [indent + line if line.strip() else line for line in lines[1:]])
    if tail.strip() and loop_text.endswith(tail.strip()):
        loop_text = loop_text[: -len(tail.strip())].rstrip()
    text = f"{name} = {module.code_for_node(call)}\n{indent}{loop_text}"
    return Fix(f"Jit once, before the loop, as `{name}`", (ReplaceSpan(loop, loop, text),), UNSAFE)
