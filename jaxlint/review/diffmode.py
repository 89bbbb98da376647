"""``--diff REV``: lint only what a change introduced.

The change is everything between ``git merge-base REV HEAD`` and the working tree: committed,
staged and unstaged edits, plus new untracked files.  Only Python files with added or modified
lines are linted, and only findings on those lines are reported (a finding of the linter itself,
such as JAX001 for a file that no longer parses, is reported for any such file).  A file that was
only renamed, or only lost lines, reports nothing.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set

from jaxlint.config import ConfigError
from jaxlint.findings import Finding
from jaxlint.paths import relpath
from jaxlint.rules import RULES_BY_CODE

PY_SUFFIXES = (".py", ".pyi")
HUNK_RE = re.compile(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")
_ESCAPES = {b"a": 7, b"b": 8, b"t": 9, b"n": 10, b"v": 11, b"f": 12, b"r": 13, b'"': 34, b"\\": 92}


class DiffError(ConfigError):
    """--diff cannot work here (not a git repository, unknown revision, git missing): exit 2."""


@dataclass
class DiffScope:
    base: str  # the merge-base commit
    # realpath -> added/modified line numbers; None means every line (a new untracked file).
    changed: Dict[str, Optional[Set[int]]] = field(default_factory=dict)

    def files(self, within: Sequence[str] = ()) -> List[str]:
        """Changed Python files with added lines, under ``within`` (files or folders) if given,
        as paths relative to the current folder, sorted."""
        roots = [os.path.realpath(p) for p in within]
        out = []
        for real, lines in self.changed.items():
            if lines is not None and not lines:
                continue
            if roots and not any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in roots):
                continue
            if not os.path.isfile(real):
                continue
            out.append(relpath(real))
        return sorted(out)

    def keep(self, f: Finding) -> bool:
        lines = self.changed.get(os.path.realpath(f.path), set())
        if lines is None:
            return True
        if not lines:
            return False
        rule = RULES_BY_CODE.get(f.code)
        if rule is not None and rule.prevents.kind == "none":
            return True  # the linter's own finding (the file does not parse, a noqa comment)
        return any(n in lines for n in range(f.line, max(f.line, f.end_line) + 1))

    def filter(self, findings: Sequence[Finding]) -> List[Finding]:
        return [f for f in findings if self.keep(f)]


def _git(args: Sequence[str], cwd: Optional[str]) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", "-c", "core.quotepath=off", *args], cwd=cwd, capture_output=True, stdin=subprocess.DEVNULL)
    except OSError as e:
        raise DiffError(f"--diff needs git: {e}") from None


def unquote_path(raw: bytes) -> str:
    """A path as git prints it: C-quoted when it holds unusual characters, else verbatim (with a
    trailing tab after names that contain spaces)."""
    if not raw.startswith(b'"'):
        return os.fsdecode(raw.rstrip(b"\t"))
    body = raw.rstrip(b"\t")[1:-1]
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i : i + 1]
        if c == b"\\" and i + 1 < len(body):
            nxt = body[i + 1 : i + 2]
            if nxt in _ESCAPES:
                out.append(_ESCAPES[nxt])
                i += 2
                continue
            if nxt.isdigit():
                out.append(int(body[i + 1 : i + 4], 8))
                i += 4
                continue
        out += c
        i += 1
    return os.fsdecode(bytes(out))


def parse_diff(diff: bytes, toplevel: str) -> Dict[str, Set[int]]:
    """realpath -> added line numbers, from ``git diff -U0`` output with a/ b/ prefixes."""
    out: Dict[str, Set[int]] = {}
    current: Optional[Set[int]] = None
    for line in diff.split(b"\n"):
        if line.startswith(b"diff --git "):
            current = None
        elif line.startswith(b"+++ "):
            name = line[4:]
            if name.rstrip(b"\t") == b"/dev/null":
                current = None
                continue
            path = unquote_path(name)
            if path.startswith("b/"):
                path = path[2:]
            current = out.setdefault(os.path.realpath(os.path.join(toplevel, path)), set())
        elif line.startswith(b"rename to "):
            # A rename without edits has no hunks: the file is known, with no added lines.
            path = unquote_path(line[len(b"rename to ") :])
            out.setdefault(os.path.realpath(os.path.join(toplevel, path)), set())
        elif line.startswith(b"@@") and current is not None:
            m = HUNK_RE.match(line)
            if m:
                start = int(m.group(1))
                count = int(m.group(2)) if m.group(2) is not None else 1
                current.update(range(start, start + count))
    return out


def changed_lines(rev: str, cwd: Optional[str] = None) -> DiffScope:
    if not rev or rev.startswith("-"):
        raise DiffError(f"invalid revision '{rev}'")
    p = _git(["rev-parse", "--show-toplevel"], cwd)
    if p.returncode != 0:
        raise DiffError("--diff needs a git repository, and this folder is not inside one")
    toplevel = os.fsdecode(p.stdout.rstrip(b"\n"))
    if _git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], cwd).returncode != 0:
        raise DiffError("--diff needs at least one commit (HEAD does not exist yet)")
    if _git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], cwd).returncode != 0:
        raise DiffError(f"unknown git revision '{rev}'")
    p = _git(["merge-base", rev, "HEAD"], cwd)
    if p.returncode != 0:
        raise DiffError(f"'{rev}' and HEAD have no common ancestor")
    base = p.stdout.decode().strip()
    options = ["--no-color", "--no-ext-diff", "--no-textconv", "--ignore-submodules", "-U0", "-M", "--diff-filter=d", "--src-prefix=a/", "--dst-prefix=b/"]
    p = _git(["diff", *options, base, "--"], toplevel)
    if p.returncode != 0:
        raise DiffError(f"git diff failed: {p.stderr.decode(errors='replace').strip()}")
    changed: Dict[str, Optional[Set[int]]] = {k: v for k, v in parse_diff(p.stdout, toplevel).items() if k.endswith(PY_SUFFIXES)}
    p = _git(["ls-files", "--others", "--exclude-standard", "-z"], toplevel)
    if p.returncode == 0:
        for raw in p.stdout.split(b"\0"):
            if raw:
                real = os.path.realpath(os.path.join(toplevel, os.fsdecode(raw)))
                if real.endswith(PY_SUFFIXES):
                    changed[real] = None
    return DiffScope(base, changed)


def scope_for(rev: Optional[str], paths: Sequence[str] = ()) -> Optional[DiffScope]:
    """The --diff scope for revision ``rev`` (None without --diff) over the paths the command
    line names (standard input, ``-``, is left out)."""
    if rev is None:
        return None
    # git runs where the first path is, so that `jaxlint --diff main ../repo` works too.
    paths = [p for p in paths if p != "-"]
    for p in paths:
        if not os.path.lexists(p):
            raise DiffError(f"{p}: no such file or directory")
    start = None
    if paths:
        first = os.path.abspath(paths[0])
        start = first if os.path.isdir(first) else os.path.dirname(first)
        if not os.path.isdir(start):
            start = None
    return changed_lines(rev, start)
