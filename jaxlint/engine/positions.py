"""Node positions for the files that have findings: LibCST's ``PositionProvider``, cheaper.

``MetadataWrapper(...).resolve(PositionProvider)`` regenerates the module and, for every
token, splits it on newlines and builds ``CodePosition``/``CodeRange`` objects for every node;
on a large file that costs about as much as the parse.  This module runs the same code
generation but only counts characters (``len`` of each token), keeps plain integer offsets,
and turns the offsets of the nodes actually asked for into lines and columns at the end, with
one regular-expression pass over the generated text.  The ranges are exactly
``PositionProvider``'s (syntactic positions, ``start_node``/``end_node`` hoisting included);
``tests/rules/test_positions.py`` checks that on every node of real files.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Dict, List, Optional, Tuple

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst._position import CodePosition, CodeRange

from jaxlint.source_text import LINE_END


class _Syntactic:
    """``with state.record_syntactic_position(node, ...)`` without a generator per node."""

    __slots__ = ("state", "node", "start_node", "end_node", "start")

    def __init__(self, state, node, start_node, end_node):
        self.state = state
        self.node = node
        self.start_node = start_node
        self.end_node = end_node

    def __enter__(self):
        self.start = self.state.pos
        return None

    def __exit__(self, *exc) -> bool:
        st = self.state
        spans = st.spans
        start = spans[id(self.start_node)][0] if self.start_node is not None else self.start
        end = spans[id(self.end_node)][1] if self.end_node is not None else st.pos
        spans[id(self.node)] = (start, end)
        return False


class _OffsetState(CodegenState):
    __slots__ = ("pos", "stack", "spans")

    def __init__(self, default_indent: str, default_newline: str):
        super().__init__(default_indent=default_indent, default_newline=default_newline)
        self.pos = 0
        self.stack: List[int] = []
        self.spans: Dict[int, Tuple[int, int]] = {}

    def add_indent_tokens(self) -> None:
        toks = self.indent_tokens
        self.tokens.extend(toks)
        for t in toks:
            self.pos += len(t)

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        self.pos += len(value)

    def before_codegen(self, node) -> None:
        self.stack.append(self.pos)

    def after_codegen(self, node) -> None:
        start = self.stack.pop()
        k = id(node)
        if k not in self.spans:  # a syntactic position recorded inside wins
            self.spans[k] = (start, self.pos)

    def pop_trailing_newline(self) -> None:
        pass  # keep the text whole: it is only used to find line starts

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        return _Syntactic(self, node, start_node, end_node)


class Positions:
    """``get(node)`` -> ``CodeRange`` (1-based lines, 0-based columns) or None; ``positions[node]``
    and ``node in positions`` as for a mapping."""

    def __init__(self, module: cst.Module):
        state = _OffsetState(module.default_indent, module.default_newline)
        module._codegen(state)
        self._spans = state.spans
        self._starts = [m.end() for m in LINE_END.finditer("".join(state.tokens))]

    def _pos(self, off: int) -> CodePosition:
        i = bisect_right(self._starts, off)
        return CodePosition(i + 1, off - (self._starts[i - 1] if i else 0))

    def get(self, node) -> Optional[CodeRange]:
        span = self._spans.get(id(node))
        if span is None:
            return None
        return CodeRange(self._pos(span[0]), self._pos(span[1]))

    def __getitem__(self, node) -> CodeRange:
        rng = self.get(node)
        if rng is None:
            raise KeyError(node)
        return rng

    def __contains__(self, node) -> bool:
        return id(node) in self._spans


def node_positions(module: cst.Module) -> Positions:
    return Positions(module)
