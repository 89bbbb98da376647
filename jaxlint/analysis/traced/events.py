"""The events the interpreter publishes, and what a rule's handler receives with them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

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
