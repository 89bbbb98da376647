"""Source text before parsing: reading a file safely, decoding it as Python does, and the cheap
checks that decide whether (and whether safely) it can be parsed at all."""

from __future__ import annotations

import bisect
import errno
import io
import os
import re
import stat
import sys
import tokenize
from array import array
from itertools import accumulate
from operator import sub
from typing import List, Optional, Sequence, Tuple



def read_regular_file(path: str) -> bytes:
    """The bytes of a regular file.  Anything else (a FIFO, a device, a socket) raises OSError
    instead of blocking or reading forever: opening is non-blocking, and checked before reading."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = file_kind(mode)
            raise OSError(errno.EINVAL, f"not a regular file ({kind})", path)
        with os.fdopen(fd, "rb") as fh:
            fd = -1
            return fh.read()
    finally:
        if fd >= 0:
            os.close(fd)


def file_kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a directory"),
    ):
        if test(mode):
            return name
    return "not a regular file"


# CPython's tokenizer refuses brackets nested deeper than this ("too many nested parentheses");
# LibCST's parser overflows the C stack (SIGSEGV) at a few thousand levels, so such a file must
# never reach it.
MAX_BRACKET_DEPTH = 200
# Brackets as +1 and -1 (signed bytes), every other byte deleted.
_BRACKET_STEPS = bytes.maketrans(b"([{)]}", b"\x01\x01\x01\xff\xff\xff")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"([{)]}")


def bracket_nesting_error(text: str) -> Optional[Tuple[str, int, int]]:
    """(message, line, column) when brackets nest deeper than Python allows, else None.

    A quick scan that ignores strings and comments decides; only a file it finds deeper than
    the limit is tokenized to know for sure."""
    if sum(text.count(c) for c in "([{") <= MAX_BRACKET_DEPTH:
        return None
    # The depth after each bracket, a closing one at depth 0 ignored, is the running sum of +1
    # and -1 less its lowest value so far: sums and minima that run in C.
    steps = array("b", text.encode("utf-8", "surrogatepass").translate(_BRACKET_STEPS, _NOT_BRACKETS))
    sums = list(accumulate(steps, initial=0))
    if max(map(sub, sums, accumulate(sums, min))) <= MAX_BRACKET_DEPTH:
        return None
    depth = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type != tokenize.OP:
                continue
            if tok.string in ("(", "[", "{"):
                depth += 1
                if depth > MAX_BRACKET_DEPTH:
                    line, col = tok.start
                    return (f"too many nested parentheses (more than {MAX_BRACKET_DEPTH} levels)", line, col + 1)
            elif tok.string in (")", "]", "}") and depth:
                depth -= 1
    except (tokenize.TokenError, SyntaxError) as e:
        # Not Python either way; and the quick scan says the parser could not take it.
        return (f"syntax error: {e.args[0] if e.args else e}", 1, 1)
    return None


# LibCST's parse time grows faster than quadratically with the length of one operator chain
# (``1 + 1 + ...``: 0.5 s at 500 terms, 2.4 s at 1000, 16 s at 2000, minutes at 30000) and the C
# stack overflows beyond that; CPython itself cannot compile a chain of a few thousand.  So an
# expression deeper than this is refused before parsing (real code stays far below it).
MAX_EXPRESSION_DEPTH = 1000

# The quick scan counts operator characters in overlapping windows of the text: a chain longer
# than MAX_EXPRESSION_DEPTH whose terms average under ~20 characters puts at least this many in
# one window.  Only a file with such a window is scanned token by token.
_WINDOW = 8192
_WINDOW_OPS = 400
_OP_TABLE = bytes(1 if chr(i) in "+-*/%&|^~<>@" else 0 for i in range(256))
# Patterns (not compiled at import: ``re`` compiles and keeps them once a file dense enough
# to need them comes).
_OP_WORDS = rb"\b(?:and|or|not|if|else)\b"

_SCAN = r"""(?x)
      (?P<s>(?:[rRbBuUfF]{1,2})?(?:\"\"\"(?:\\.|[^\\])*?\"\"\"|'''(?:\\.|[^\\])*?'''|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'))
     |(?P<c>\#[^\n]*)
     |(?P<cont>\\\r?\n)
     |(?P<nl>\n)
     |(?P<open>[(\[{])
     |(?P<close>[)\]}])
     |(?P<sep>[,;]|:(?!=))
     |(?P<op>\*\*|//|<<|>>|<=|>=|==|!=|->|[-+*/%&|^~<>@]|\b(?:and|or|not|if|else|lambda|in|is|await)\b)
    """


def _dense_window(text: str) -> bool:
    """Some window of the text holds _WINDOW_OPS operator characters or words.  Costs a few
    milliseconds on a 300 KB file (C-level translate and count; the words are looked for only
    in a file that has enough of them)."""
    data = text.encode("utf-8", "surrogatepass")
    marks = data.translate(_OP_TABLE)
    chars = marks.count(1)
    words_total = sum(data.count(w) for w in (b"and", b" or", b"not", b"if", b"else"))  # >= the words
    if chars + words_total < _WINDOW_OPS:
        return False
    words: List[int] = []
    if words_total >= _WINDOW_OPS // 4:
        words = [m.start() for m in re.finditer(_OP_WORDS, data)]
    for start in range(0, len(data), _WINDOW // 2):
        end = start + _WINDOW
        n = marks.count(1, start, end)
        if words:
            n += bisect.bisect_left(words, end) - bisect.bisect_left(words, start)
        if n >= _WINDOW_OPS:
            return True
    return False


def _deepest_expression(text: str) -> Tuple[int, int]:
    """(an upper bound of the deepest expression's operator nesting, the offset where it is
    reached).  Attribute dots are not counted: they nest within one term, not along a chain.  Operators between two separators (``,`` ``;`` ``:``) of one bracket level are one
    chain; a chain inside brackets adds to the chain around them; a statement's end starts
    again.  Strings and comments are skipped (adjacent string literals are not counted: LibCST
    parses a long run of them in linear time).  Stops once past MAX_EXPRESSION_DEPTH."""
    stack = [0]
    total = best = where = 0
    for m in re.finditer(_SCAN, text):
        kind = m.lastgroup
        if kind == "op":
            stack[-1] += 1
            total += 1
            if total > best:
                best, where = total, m.start()
                if best > MAX_EXPRESSION_DEPTH:
                    break
        elif kind == "open":
            stack.append(0)
        elif kind == "close":
            if len(stack) > 1:
                total -= stack.pop()
        elif kind == "sep":
            total -= stack[-1]
            stack[-1] = 0
        elif kind == "nl" and len(stack) == 1:
            total = stack[0] = 0
    return best, where


def expression_depth_error(text: str) -> Optional[Tuple[str, int, int]]:
    """(message, line, column) when an expression nests deeper than MAX_EXPRESSION_DEPTH
    operators (a long ``1 + 1 + ...`` chain), else None.  Says so when CPython cannot compile
    the file either.  Cheap for ordinary files: see ``_dense_window``."""
    if len(text) <= MAX_EXPRESSION_DEPTH or not _dense_window(text):
        return None
    depth, offset = _deepest_expression(text)
    if depth <= MAX_EXPRESSION_DEPTH:
        return None
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    message = f"expression too deeply nested to analyse (more than {MAX_EXPRESSION_DEPTH} operators in one chain)"
    error = _compile_error(text)
    if error is not None:
        message += f"; CPython cannot compile it either ({error})"
    return message, line, column


# The recursion limit a fresh interpreter starts with.  CPython's compiler scales its own depth
# limit from the current recursion limit, so whether a deep chain compiles depends on it.
_INTERPRETER_RECURSION_LIMIT = 1000


def _compile_error(text: str) -> Optional[str]:
    """Why ``python file.py`` could not compile ``text``, or None.  Compiling runs nothing.  It is
    tried under the limit a fresh interpreter has, whatever this process raised it to (the deep
    analysis does), so the answer is about the user's program, not about jaxlint's state."""

    previous = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(_INTERPRETER_RECURSION_LIMIT)
    except RecursionError:  # this stack is already deeper than that: no answer
        return None
    try:
        compile(text, "<checked>", "exec", dont_inherit=True)
    except RecursionError:
        return "RecursionError: too deeply nested"
    except (SyntaxError, ValueError, MemoryError) as e:
        return type(e).__name__
    finally:
        sys.setrecursionlimit(previous)
    return None


def mentions_jax(text: str, extra: Sequence[str] = ()) -> bool:
    if "jax" in text:
        return True
    return any(e.split(".")[0] in text for e in extra)
