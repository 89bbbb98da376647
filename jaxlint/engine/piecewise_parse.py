"""Parse a module with LibCST (:func:`parse_module`), and a large one a piece at a time, into the
very tree one parse of the whole would give.

LibCST's parser holds, while it parses, about 370 bytes for each byte of source (a 390 kB module
takes 145 MB), far more than the tree it returns.  One large module would then set the
memory of a whole run.  So a module larger than ``2 * PIECE`` characters is cut between
top-level statements into pieces of at least ``PIECE`` characters, each piece is parsed alone,
and the pieces' trees are joined.

Why the join is the same tree: at the start of a line that begins a top-level statement (not
inside a string, brackets or a continued line, which is why each piece is checked with
``ast.parse``), the tokenizer is in the state it is in at the start of a file, and the parser is
between two statements, so each piece parses to the statements the whole would have.  Only
three things tell a piece from a file, and the join puts each back:

* the empty lines and comments before a cut end the piece above as its module ``footer``, where
  the whole puts them in front of the next statement (its ``leading_lines``), as it does with a
  piece's ``header``.  A cut is made only where each of those lines is empty or a comment at
  column 0: LibCST gives other lines at the end of a file to the block above, or drops them;
* a module's ``default_indent`` is the indent of its first indented block, and a block that
  uses it stores none of its own.  A piece with no block reports LibCST's default, which says
  nothing; if two pieces' blocks disagree the module is parsed whole;
* likewise ``default_newline``: pieces that disagree are parsed whole.

Whatever is not plainly cuttable (a file ``ast`` cannot parse, lone carriage returns, a piece
LibCST rejects) is parsed whole, so errors and their positions are the whole module's.
``tests/slow/test_parse.py`` checks the join against the whole parse, cut at every statement, on every
fixture and every module of the package.  Only for the main thread: cutting silences ``ast``'s
warnings for a moment, and the warning filters are the whole process's."""

from __future__ import annotations

import ast
import re
import threading
import warnings
from typing import List, Optional, Sequence

import libcst as cst
from libcst._nodes.base import CSTNode

PIECE = 64 * 1024

# LibCST's indent when a module has no indented block.
_NO_BLOCK_INDENT = "    "
# A line between two statements that a piece may end with: empty, or a comment at column 0.
# Others are not: LibCST gives a block's trailing comments indented at its level to the block,
# and at the end of a file it gives other lines to the block too, or drops a line that starts
# with whitespace; before a statement it does neither.
_TRIVIA_LINE = re.compile(r"(?:#[^\r\n]*)?\r?\n\Z")


def parse_piecewise(text: str, piece: int = PIECE) -> cst.Module:
    """``libcst.parse_module(text)``, parsing pieces of at least ``piece`` characters (and under
    one and a half pieces plus one statement) when ``text`` has top-level statements to cut
    between."""
    cuts = find_cuts(text, piece) if len(text) >= 2 * piece else None
    if not cuts:
        return cst.parse_module(text)
    try:
        joined = parse_pieces(text, cuts)
    except Exception:  # noqa: BLE001 - the whole parse raises it again, with the whole's positions
        joined = None
    return joined if joined is not None else cst.parse_module(text)


def parse_pieces(text: str, cuts: Sequence[int]) -> Optional[cst.Module]:
    """The module's tree from its pieces between ``cuts`` (offsets from ``find_cuts``), each
    parsed alone; None when the pieces disagree (then the module is to be parsed whole).  Raises
    what LibCST's parse of a piece raises."""
    bounds = [0, *cuts, len(text)]
    return _join([cst.parse_module(text[a:b]) for a, b in zip(bounds, bounds[1:])])


def find_cuts(text: str, piece: int) -> Optional[List[int]]:
    """Offsets where a top-level statement starts at the start of a line, after only empty lines
    and comments at column 0, at least ``piece`` characters after the previous cut; None when
    the module is to be parsed whole.

    ``ast`` checks each piece alone, never the whole module: the tree of a whole large module
    would set the run's memory (a 5 MB module's takes over 1 GB).  A line at column 0 starts a
    top-level statement exactly when the text above it is complete (no open string, bracket,
    continued line or decorator) and the line does not continue a compound statement
    (``else``, ``elif``, ``except``, ``finally``).  Every piece, the last one included, must
    parse, so a module is cut only when this Python's ``ast`` parses it."""
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return None  # a lone CR ends a line for Python but not for the line starts below
    cuts: List[int] = []
    last = 0
    checked = 0  # characters given to ``ast``: a long stretch that never parses is parsed whole
    for line in _STATEMENT_START.finditer(text):
        at = line.start()
        if at - last < piece or not _trivia_above(text, last, at):
            continue
        if last == 0 and not _STATEMENT_START.search(text, 0, at):
            continue  # a first piece of only comments has no statement to join after
        checked += at - last
        if checked > _CHECK_LIMIT * len(text):
            return None
        if _parses(text[last:at]):
            cuts.append(at)
            last = at
    if cuts and len(text) - cuts[-1] < piece // 2:
        cuts.pop()  # no small last piece
    if cuts and not _parses(text[cuts[-1] :]):
        return None
    return cuts


# A line that may start a top-level statement: not indented, not a comment, not a clause that
# continues the compound statement above.
_STATEMENT_START = re.compile(r"^(?=[^ \t\f#\r\n])(?!(?:else|elif|except|finally)\b)", re.MULTILINE)
_CHECK_LIMIT = 4


def _trivia_above(text: str, start: int, at: int) -> bool:
    """Whether the lines between the statement above ``at`` and ``at`` are each empty or a
    comment at column 0 (LibCST gives other lines at the end of a piece to the block above)."""
    end = at
    while end > start:
        begin = text.rfind("\n", start, end - 1) + 1
        begin = max(begin, start)
        stripped = text[begin:end].strip()
        if stripped and not stripped.startswith("#"):
            return True  # the last line of the statement above
        if not _TRIVIA_LINE.match(text, begin, end):
            return False
        end = begin
    return True


def _parses(source: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes and the like: the lint reports them
            ast.parse(source)
    except Exception:  # noqa: BLE001 - SyntaxError, RecursionError, newer syntax: not a piece
        return False
    return True


def _join(modules: Sequence[cst.Module]) -> Optional[cst.Module]:
    if len({m.default_newline for m in modules}) > 1:
        return None
    indents = {m.default_indent for m in modules if m.default_indent != _NO_BLOCK_INDENT}
    if len(indents) > 1:
        return None
    indent = indents.pop() if indents else _NO_BLOCK_INDENT
    if indent != _NO_BLOCK_INDENT and any(
        m.default_indent == _NO_BLOCK_INDENT and any(_has_block(s) for s in m.body) for m in modules
    ):
        return None  # a piece whose first block is indented like LibCST's default
    body = list(modules[0].body)
    for above, below in zip(modules, modules[1:]):
        head = below.body[0]
        body.append(head.with_changes(leading_lines=(*above.footer, *below.header, *head.leading_lines)))
        body.extend(below.body[1:])
    first, last = modules[0], modules[-1]
    return cst.Module(
        body=tuple(body),  # sequences as the parser makes them: tuples
        header=first.header,
        footer=last.footer,
        encoding=first.encoding,
        default_indent=indent,
        default_newline=first.default_newline,
        has_trailing_newline=last.has_trailing_newline,
    )


def _has_block(node) -> bool:
    """Whether a statement (or one of its clauses) has an indented block."""
    if isinstance(node, (cst.IndentedBlock, cst.Match)):
        return True
    if not isinstance(node, cst.CSTNode) or isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        return False
    clauses = (getattr(node, "body", None), getattr(node, "orelse", None), getattr(node, "finalbody", None), *getattr(node, "handlers", ()))
    return any(_has_block(c) for c in clauses if c is not None)


_PARSE_LOCK = threading.Lock()


def _unchecked(self) -> None:
    pass


def parse_module(text: str):
    """``libcst.parse_module(text)`` without LibCST re-validating every node the parser builds.

    Each node's constructor runs ``_validate`` (that whitespace is whitespace, that a name is an
    identifier...): checks meant for trees built by hand, which a tree the parser built from
    source passes by construction, and which cost about a quarter of the parse.  They are
    switched off for the parse only (LibCST's own comment on ``CSTNode.__post_init__`` suggests
    skipping them when parsing a file); nodes built afterwards, by fixes, are checked as usual.
    Then, in the main thread, a large module is parsed a piece at a time (``piecewise_parse``),
    into the same tree, so that its parse does not set the run's memory.  The parse raises
    exactly what ``libcst.parse_module`` raises."""
    if threading.current_thread() is not threading.main_thread() or not _PARSE_LOCK.acquire(blocking=False):
        # another thread builds nodes meanwhile (or parses): keep its checks, and parse whole
        # (cutting into pieces silences ``ast``'s warnings, which is not safe across threads)
        return cst.parse_module(text)
    try:
        checked = CSTNode.__dict__.get("__post_init__")
        if checked is None or threading.active_count() > 1:
            return cst.parse_module(text)
        CSTNode.__post_init__ = _unchecked
        try:
            return parse_piecewise(text)
        finally:
            CSTNode.__post_init__ = checked
    finally:
        _PARSE_LOCK.release()
