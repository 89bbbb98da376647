"""Which block of a scope's body holds a call, and whether it runs only under a condition."""

from __future__ import annotations

import textwrap

import libcst as cst

from jaxlint.analysis.syntax.statement_paths import TreeSpans, block_key, conditional, statement_path

SOURCE = textwrap.dedent(
    """
    first(1)
    with ctx:
        second(2)
    if flag:
        third(3)
    elif other:
        fourth(4)
    else:
        fifth(5)
    for step in range(3):
        sixth(6)
        if step % 2:
            seventh(7)
    try:
        eighth(8)
    except ValueError:
        ninth(9)
    def nested():
        tenth(10)
    """
)


def _paths():
    module = cst.parse_module(SOURCE)
    spans = TreeSpans(module)
    calls = {}

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node):
            if isinstance(node.func, cst.Name) and node.func.value != "range":
                calls[node.func.value] = node

    module.visit(Calls())
    return {name: statement_path(module.body, call, spans) for name, call in calls.items()}


def test_blocks_that_run_one_statement_after_the_other():
    p = _paths()
    assert block_key(p["first"]) != block_key(p["second"])  # the with's body is a block of its own
    assert len({block_key(p[n]) for n in ("third", "fourth", "fifth")}) == 3  # if, elif, else
    assert block_key(p["eighth"]) != block_key(p["ninth"])
    assert p["tenth"] is None  # in a nested def


def test_conditions_inside_the_innermost_loop():
    p = _paths()
    assert [n for n in ("first", "second", "sixth", "eighth") if conditional(p[n])] == []
    assert [n for n in ("third", "fourth", "fifth", "seventh", "ninth") if not conditional(p[n])] == []


FLOW = textwrap.dedent(
    """
    def make(a, b):
        first = 1
        if a:
            second = 2
            return second
        if b:
            third = 3
        else:
            fourth = 4
        for k in range(3):
            fifth = k
            if k:
                return fifth
        try:
            return first
        except ValueError:
            sixth = 6
        if a: return 7
        seventh = 7
    """
)


def test_which_statements_can_follow_which_in_one_run():
    from jaxlint.analysis.syntax.module_index import ModuleIndex

    scope = ModuleIndex(cst.parse_module(FLOW)).functions[0].body_scope
    at = {name: binds[0].order for name, binds in scope.bindings.items()}
    follows = scope.can_follow
    assert follows(at["first"], at["second"]) and follows(at["first"], at["third"])
    assert not follows(at["second"], at["third"])  # past the branch's return
    assert not follows(at["third"], at["fourth"]) and not follows(at["fourth"], at["third"])  # if / else
    assert follows(at["fifth"], at["k"])  # the loop comes round again
    assert follows(at["fifth"], at["sixth"])  # a return inside a loop may be skipped
    assert follows(at["first"], at["sixth"])  # a return inside a try may not be reached
    assert follows(at["sixth"], at["seventh"])  # a one-line `if a: return` may not be taken
