"""Stable identities for findings, shared by SARIF, GitLab Code Quality and ``--baseline``.

A fingerprint must survive edits that only move a finding (lines added or removed above it,
re-indentation) and change when the flagged code itself changes.  So it hashes what the finding
*is* rather than where it sits: the rule code, the repository-relative path, the flagged source
line with its whitespace collapsed, and the occurrence index among findings of the same code on
identical lines of the same file (two ``if x > 0:`` lines in one file stay distinct).
"""

from __future__ import annotations

import os
from typing import Dict, List, Optional, Sequence

from jaxlint.findings import Finding
from jaxlint.paths import relative_to
from jaxlint.source_text import decode_source

VERSION = "v1"  # bump when the recipe changes: old baselines then match nothing, loudly


def project_root(start: Optional[str] = None) -> str:
    """The top of the git work tree containing ``start`` (default: the current folder), else
    ``start`` itself.  Found by looking for ``.git``, without running git."""
    start = os.path.abspath(start or os.getcwd())
    d = start
    while True:
        if os.path.exists(os.path.join(d, ".git")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return start
        d = parent


_TOPS: Dict[str, Optional[str]] = {}


def repository_of(folder: str) -> Optional[str]:
    """The top of the git work tree holding ``folder``, or None (memoised per folder)."""
    if folder not in _TOPS:
        top = project_root(folder)
        _TOPS[folder] = top if os.path.exists(os.path.join(top, ".git")) else None
    return _TOPS[folder]


def repo_path(path: str, root: Optional[str] = None) -> str:
    """``path`` (as reported, relative to the current folder) relative to ``root``, with forward
    slashes.  Without ``root``, relative to the git repository that holds the file, so that the
    working folder a run starts from never changes a fingerprint or a reported path (outside
    any repository: relative to the working folder).  Paths outside ``root`` and pseudo-paths
    such as ``-`` are returned with forward slashes only."""
    if path in ("-", "<stdin>", "<string>"):
        return path
    full = os.path.abspath(path)
    return relative_to(full, root or repository_of(os.path.dirname(full)) or os.getcwd(), path)


# Sources linted from memory (standard input), by the path they are reported under: the file of
# that name on disk, if any, may hold something else (an editor's unsaved buffer).
_IN_MEMORY: Dict[str, str] = {}


def remember_source(path: str, source) -> None:
    """Record the text linted for ``path`` when it did not come from the file itself."""
    if isinstance(source, bytes):
        try:
            source = decode_source(source)
        except (UnicodeDecodeError, SyntaxError, LookupError):
            source = ""
    _IN_MEMORY[path] = source


class SourceLines:
    """Source lines of reported files, read once each.  ``texts`` supplies files that are not on
    disk (standard input); files that cannot be read give no lines."""

    def __init__(self, texts: Optional[Dict[str, str]] = None) -> None:
        self._lines: Dict[str, List[str]] = {}
        for path, text in {**_IN_MEMORY, **(texts or {})}.items():
            self._lines[path] = text.splitlines()

    def lines(self, path: str) -> List[str]:
        got = self._lines.get(path)
        if got is None:
            got = []
            try:
                with open(path, "rb") as fh:
                    data = fh.read()
                got = decode_source(data).splitlines()
            except (OSError, UnicodeDecodeError, SyntaxError, LookupError):
                pass
            self._lines[path] = got
        return got

    def line(self, path: str, lineno: int) -> str:
        lines = self.lines(path)
        return lines[lineno - 1] if 0 < lineno <= len(lines) else ""


def normalize(line: str) -> str:
    return " ".join(line.split())


def fingerprints(
    findings: Sequence[Finding],
    root: Optional[str] = None,
    sources: Optional[SourceLines] = None,
) -> List[str]:
    """One fingerprint per finding, in the order given."""
    import hashlib  # imported on use (it loads OpenSSL): only the formats that carry fingerprints ask

    sources = sources or SourceLines()
    order = sorted(range(len(findings)), key=lambda i: findings[i].sort_key())
    seen: Dict[tuple, int] = {}
    out: List[str] = [""] * len(findings)
    for i in order:
        f = findings[i]
        key = (f.code, repo_path(f.path, root), normalize(sources.line(f.path, f.line)))
        n = seen.get(key, 0)
        seen[key] = n + 1
        h = hashlib.sha256("\0".join((VERSION, *key, str(n))).encode("utf-8", "surrogatepass")).hexdigest()
        out[i] = h[:32]
    return out
