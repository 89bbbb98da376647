"""Statements and expressions of traced code, evaluated to abstract values.

The interpreter walks statements once (loops twice, so loop-carried values propagate), follows
calls into functions of the same module through the Analyzer, and reports what it sees as
*events* (jaxlint.analysis.traced.events) that the rule classes subscribe to; it never decides what is
a finding itself.

The interpreter is one class put together from one mixin per concern: ``statements.py``,
``narrowing.py``, ``expressions.py``, ``call_expressions.py`` and ``library_calls.py``.  This
module combines them and holds the per-frame state they share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import libcst as cst

from jaxlint.analysis.traced.call_expressions import CallExpressions
from jaxlint.analysis.traced.expressions import Expressions
from jaxlint.analysis.traced.frame import Frame
from jaxlint.analysis.traced.library_calls import LibraryCalls
from jaxlint.analysis.traced.narrowing import Narrowing
from jaxlint.analysis.traced.statements import Statements

if TYPE_CHECKING:  # pragma: no cover
    from jaxlint.analysis.traced.calls import Analyzer


class Interp(Statements, Narrowing, Expressions, CallExpressions, LibraryCalls):
    """Interprets one function body in a Frame."""

    __slots__ = ("analyzer", "frame", "emit", "receiver", "attr_hint", "deferring")

    def __init__(self, analyzer: Analyzer, frame: Frame):
        self.analyzer = analyzer
        self.frame = frame
        self.emit = analyzer.emit
        # The name being mutated in place (``h.append(x)``, ``d[k] = v``): not a value read.
        self.receiver: Optional[cst.Name] = None
        # (name node, attribute) while evaluating ``name.attribute``: captures say which field is read
        self.attr_hint: Optional[tuple] = None
        # While an outer variable is only bound to a name (see ``outer_object``).
        self.deferring = False
