"""The rule registry: every rule class, by code."""

from __future__ import annotations

from typing import Dict, List, Sequence, Type

from jaxlint.rules.base import Rule
from jaxlint.rules.changing_shape_arg import ChangingShapeArg
from jaxlint.rules.frozen import (
    FrozenCapture,
    InplaceArrayUpdate,
    OuterStateMutation,
    PrintInTraced,
    TraceTimeRandomness,
)
from jaxlint.rules.meta import InternalError, ParseError
from jaxlint.rules.migrations.deprecated_jax_api import DeprecatedJaxApi
from jaxlint.rules.migrations.removed_jax_api import RemovedJaxApi
from jaxlint.rules.recompile import JitInLoop
from jaxlint.rules.silent.discarded_update import DiscardedUpdate
from jaxlint.rules.silent.formatted_debug_print import FormattedDebugPrint
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
    ChangingShapeArg,
    FrozenCapture,
    PrintInTraced,
    OuterStateMutation,
    InplaceArrayUpdate,
    TraceTimeRandomness,
    JitInLoop,
    DiscardedUpdate,
    FormattedDebugPrint,
    RemovedJaxApi,
    DeprecatedJaxApi,
]

RULES_BY_CODE: Dict[str, Type[Rule]] = {r.code: r for r in ALL_RULES}


def selected_rules(select: Sequence[str] = (), ignore: Sequence[str] = ()) -> List[Type[Rule]]:
    """Rules enabled by select/ignore prefixes (the longest matching prefix wins, as in flake8)."""
    out = []
    for r in ALL_RULES:
        if is_enabled(r.code, select, ignore, r.default_enabled):
            out.append(r)
    return out


def is_enabled(code: str, select: Sequence[str], ignore: Sequence[str], default: bool = True) -> bool:
    s = max((len(p) for p in select if code.startswith(p)), default=-1)
    i = max((len(p) for p in ignore if code.startswith(p)), default=-1)
    if not select:
        s = 0 if default else -1
    if s < 0:
        return False
    return s >= i if i >= 0 else True
