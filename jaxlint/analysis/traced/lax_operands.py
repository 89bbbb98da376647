"""What a lax primitive (``scan``, ``fori_loop``, ``while_loop``, ``cond``, ``switch``, ``map``)
passes to the function it is given, as abstract values."""

from __future__ import annotations

from typing import List, Optional

from jaxlint.analysis.syntax.nodes import is_none_literal
from jaxlint.analysis.traced.values import ARRAY, STATIC_VAL, TRACED, Val, to_traced


def lax_operands(q: str, argvals) -> Optional[List[Val]]:
    """What a lax primitive passes to its function(s), from its (Arg, Val) arguments: the
    carry keeps its pytree structure, every leaf becomes an array."""
    if any(a.star for a, _ in argvals):
        return None
    pos = [(a, v) for a, v in argvals if a.keyword is None]
    kw = {a.keyword.value: (a, v) for a, v in argvals if a.keyword is not None}

    def arg(i, name):
        if i < len(pos):
            return pos[i]
        return kw.get(name)

    short = q.rsplit(".", 1)[-1]
    if short == "scan":
        init, xs = arg(1, "init"), arg(2, "xs")
        # a slice of every leaf of ``xs``: the same pytree structure, its leaves arrays
        x = STATIC_VAL if xs is None or is_none_literal(xs[0].value) else to_traced(xs[1])
        return [carried(init), x]
    if short == "fori_loop":
        return [Val(TRACED, None, ARRAY), carried(arg(3, "init_val"))]
    if short == "while_loop":
        return [carried(arg(2, "init_val"))]
    if short in ("cond", "switch"):
        start = 3 if short == "cond" else 2
        return [carried(p) for p in pos[start:]]
    if short == "map":
        return [Val(TRACED, None, ARRAY)]
    if short in ("vjp", "linearize"):
        return [carried(p) for p in pos[1:]]  # the primals, as JVP tracers
    return None


def carried(av) -> Val:
    """A lax operand as the function receives it: every leaf an array, the containers kept."""
    if av is None:
        return Val(TRACED, None, 0)
    a, v = av
    if is_none_literal(a.value):
        return STATIC_VAL
    return to_traced(v)
