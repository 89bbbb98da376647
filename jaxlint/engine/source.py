"""Source text before parsing: reading a file safely, decoding it as Python does, and the cheap
checks that decide whether (and whether safely) it can be parsed at all."""

from __future__ import annotations

import errno
import io
import os
import re
import stat
import threading
import tokenize
from typing import Optional, Sequence, Tuple


def decode_source(data: bytes) -> str:
    """Decode like Python does: BOM, coding cookie, else UTF-8.  Raises UnicodeDecodeError/SyntaxError."""
    enc, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(enc)
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


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
_BRACKETS_RE = re.compile(r"[\[\](){}]")


def bracket_nesting_error(text: str) -> Optional[Tuple[str, int, int]]:
    """(message, line, column) when brackets nest deeper than Python allows, else None.

    A quick scan that ignores strings and comments decides; only a file it finds deeper than
    the limit is tokenized to know for sure."""
    if sum(text.count(c) for c in "([{") <= MAX_BRACKET_DEPTH:
        return None
    depth = deepest = 0
    for m in _BRACKETS_RE.finditer(text):
        if m.group() in "([{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif depth:
            depth -= 1
    if deepest <= MAX_BRACKET_DEPTH:
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


def mentions_jax(text: str, extra: Sequence[str] = ()) -> bool:
    if "jax" in text:
        return True
    return any(e.split(".")[0] in text for e in extra)


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
    The parse raises exactly what ``libcst.parse_module`` raises."""
    import libcst as cst
    from libcst._nodes.base import CSTNode

    if threading.current_thread() is not threading.main_thread() or not _PARSE_LOCK.acquire(blocking=False):
        # another thread builds nodes meanwhile (or parses): keep its checks
        return cst.parse_module(text)
    try:
        checked = CSTNode.__dict__.get("__post_init__")
        if checked is None or threading.active_count() > 1:
            return cst.parse_module(text)
        CSTNode.__post_init__ = _unchecked
        try:
            return cst.parse_module(text)
        finally:
            CSTNode.__post_init__ = checked
    finally:
        _PARSE_LOCK.release()
