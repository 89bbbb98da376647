"""The events the interpreter publishes, and what a rule's handler receives with them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.traced.effects import state_of
from jaxlint.analysis.traced.frame import Frame
from jaxlint.analysis.syntax.scopes import FuncInfo

if TYPE_CHECKING:  # pragma: no cover
    from jaxlint.analysis.traced.calls import Analyzer


class Context:
    """What a rule sees when an event reaches it."""

    __slots__ = ("frame", "analyzer")

    def __init__(self, frame: Frame, analyzer: "Analyzer"):
        self.frame = frame
        self.analyzer = analyzer

    @property
    def cached(self) -> bool:
        return self.frame.cached

    @property
    def func(self) -> FuncInfo:
        return self.frame.func

    def is_local(self, name: str) -> bool:
        return self.frame.is_local(name)

    def report(self, rule, node: cst.CSTNode, **fields) -> None:
        self.analyzer.report(rule, node, self.frame, fields)

    def report_effect(self, rule, node: cst.CSTNode, written, stmt=None, **fields) -> None:
        """A finding about a write to the Python state the expression ``written`` names: it
        stands only if what was written is still there when the trace ends."""
        state = state_of(self.frame, written) if written is not None else None
        if state is None:
            self.analyzer.report(rule, node, self.frame, fields)
        else:
            self.analyzer.report(rule, node, self.frame, fields, state, stmt)

EVENTS = (
    "test",
    "call",
    "method",
    "boolop",
    "not_",
    "compare_in",
    "subscript",
    "store",
    "kept",
    "capture",
    "name_write",
    "format_spec",
    "traced_static_arg",
    "chained_compare",
)
