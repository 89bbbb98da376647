"""The rule registry: every rule class, by code."""

from __future__ import annotations

from typing import Dict, List, Sequence, Type

from jaxlint.rules.base import Rule
from jaxlint.selectors import is_enabled  # noqa: F401 - re-exported for callers of the registry
from jaxlint.rules.frozen import (
    FrozenCapture,
    InplaceArrayUpdate,
    OuterStateMutation,
    PrintInTraced,
    TraceTimeRandomness,
)
from jaxlint.rules.meta import InternalError, ParseError, UnknownNoqaCode, UnusedNoqa
from jaxlint.rules.recompile import JitInLoop
from jaxlint.rules.static_args import ChangingStaticArg, StaticArrayParam, StaticSpecMismatch, UnhashableStaticArg
from jaxlint.rules.traced_values import (
    NumpyOnTracer,
    TracedAssert,
    TracedBoolOp,
    TracedConcretization,
    TracedIf,
    TracedRangeOrIndex,
    TracedShape,
    TracedWhile,
)

ALL_RULES: List[Type[Rule]] = [
    ParseError,
    InternalError,
    UnknownNoqaCode,
    UnusedNoqa,
    TracedIf,
    TracedWhile,
    TracedRangeOrIndex,
    TracedConcretization,
    TracedAssert,
    TracedBoolOp,
    NumpyOnTracer,
    TracedShape,
    StaticArrayParam,
    UnhashableStaticArg,
    StaticSpecMismatch,
    ChangingStaticArg,
    FrozenCapture,
    PrintInTraced,
    OuterStateMutation,
    InplaceArrayUpdate,
    TraceTimeRandomness,
    JitInLoop,
]

RULES_BY_CODE: Dict[str, Type[Rule]] = {r.code: r for r in ALL_RULES}


def selected_rules(select: Sequence[str] = (), ignore: Sequence[str] = ()) -> List[Type[Rule]]:
    """Rules enabled by select/ignore prefixes (the longest matching prefix wins, as in flake8)."""
    out = []
    for r in ALL_RULES:
        if is_enabled(r.code, select, ignore, r.default_enabled):
            out.append(r)
    return out
