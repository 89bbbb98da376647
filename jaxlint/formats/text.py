"""Text for people: ``full`` (the default on a terminal) and ``concise`` (one line per finding:
pipes, grep, pre-commit).

``full`` shows, under the location line, the flagged source line with a caret under the range,
a ``help:`` line with the fix advice, and the related locations (where a frozen capture gets
its new value).  Colour follows the severity that every machine format reports: red for errors
(code that fails where it runs), yellow for warnings (code that runs but misbehaves); see
jaxlint/rules/severity.py."""

from __future__ import annotations

from collections import Counter
from typing import List, Optional, Sequence

from jaxlint import rules as registry  # its names load on first use: the rules import LibCST
from jaxlint.findings import Finding
from jaxlint.fingerprints import SourceLines
from jaxlint.formats._common import observed_phrase, severity

RESET = "\x1b[0m"
BOLD = "\x1b[1m"
CYAN = "\x1b[36m"
BLUE = "\x1b[1;34m"
SEVERITY_COLOUR = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m"}


def _paint(text: str, colour: str, on: bool) -> str:
    return f"{colour}{text}{RESET}" if on else text


def dynamic_suffix(f: Finding) -> str:
    out = ""
    d = f.dynamic
    if d:
        status = d.get("status", "")
        detail = d.get("detail")
        out = f" [{status}: {detail}]" if detail and status != "confirmed" else f" [{status}]"
    if f.observed:
        out += f" [{observed_phrase(f.observed)}]"
    return out


def headline(f: Finding, color: bool = False, unsafe_fixes: bool = False) -> str:
    """``path:line:col: CODE message`` (the concise line), with ``[*]`` after the code when
    ``--fix`` (with ``unsafe_fixes``: ``--fix --unsafe-fixes``) can fix it, as ruff marks it."""
    if color:
        sep = _paint(":", CYAN, True)
        loc = f"{_paint(f.path, BOLD, True)}{sep}{f.line}{sep}{f.column}{sep}"
    else:
        loc = f"{f.path}:{f.line}:{f.column}:"
    # the severity is looked up for the colour alone: a run printing to a pipe (pre-commit) that
    # the cache answered then imports no rule, and so no LibCST
    code = _paint(f.code, SEVERITY_COLOUR[severity(f.code)], True) if color else f.code
    if f.fixable(unsafe_fixes):
        code += " " + _paint("[*]", CYAN, color)
    return f"{loc} {code} {f.message}{dynamic_suffix(f)}"


def fix_summary(findings: Sequence[Finding], unsafe_fixes: bool = False) -> str:
    """The line under the text report that says how many findings ``--fix`` can fix (ruff's
    words), or "" when none can."""
    fixable = sum(1 for f in findings if f.fixable(unsafe_fixes))
    hidden = 0 if unsafe_fixes else sum(1 for f in findings if f.fixable(True)) - fixable
    more = f"{hidden} hidden fix{'es' if hidden != 1 else ''} can be enabled with the `--unsafe-fixes` option"
    if fixable and hidden:
        return f"[*] {fixable} fixable with the `--fix` option ({more})."
    if fixable:
        return f"[*] {fixable} fixable with the `--fix` option."
    if hidden:
        return f"No fixes available ({more})."
    return ""


def format_concise(
    findings: Sequence[Finding], color: bool = False, show_fix: bool = False, unsafe_fixes: bool = False, **_
) -> str:
    lines = []
    for f in findings:
        lines.append(headline(f, color, unsafe_fixes))
        if show_fix and f.fix:
            lines.append(f"    help: {f.fix}")
    return "\n".join(lines) + ("\n" if lines else "")


def _expand_tabs(text: str) -> str:
    return text.replace("\t", "    ")


def _snippet(sources: SourceLines, path: str, line: int, column: int, end_line: int, end_column: int, label: str, colour: str, color: bool) -> List[str]:
    """The source line and a caret line under [column, end_column) (to the end of the line when
    the range goes on to later lines)."""
    text = sources.line(path, line)
    if not text:
        return []
    width = len(str(line))
    gutter = _paint(" " * width + " |", BLUE, color)
    start = max(0, column - 1)
    end = end_column - 1 if end_line == line else len(text.rstrip())
    end = max(end, start + 1)
    lead = _expand_tabs(text[:start])
    marks = "^" * max(1, len(_expand_tabs(text[start:end])))
    return [
        gutter,
        _paint(f"{line:>{width}} |", BLUE, color) + " " + _expand_tabs(text.rstrip("\n")),
        gutter + " " + " " * len(lead) + _paint(marks + (" " + label if label else ""), colour, color),
    ]


def format_full(
    findings: Sequence[Finding],
    color: bool = False,
    sources: Optional[SourceLines] = None,
    unsafe_fixes: bool = False,
    **_,
) -> str:
    sources = sources or SourceLines()
    blocks = []
    for f in findings:
        colour = SEVERITY_COLOUR[severity(f.code)]
        lines = [headline(f, color, unsafe_fixes)]
        lines += _snippet(sources, f.path, f.line, f.column, f.end_line, f.end_column, f.code, colour, color)
        for r in f.related or ():
            where = f"{r['path']}:{r['line']}:{r['column']}"
            lines.append(f"  {_paint('=', BLUE, color)} {_paint('note', BOLD, color)}: {r['message']} ({where})")
            lines += [
                "    " + row
                for row in _snippet(sources, r["path"], r["line"], r["column"], r["end_line"], r["end_column"], "", CYAN, color)[1:]
            ]
        if f.fix:
            lines.append(f"  {_paint('=', BLUE, color)} {_paint('help', BOLD, color)}: {f.fix}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + ("\n" if blocks else "")


def format_statistics(findings: Sequence[Finding], unsafe_fixes: bool = False) -> str:
    """``--statistics``: one row per code, as ruff prints it: the count, the code, ``[*]`` when
    ``--fix`` can fix some of its findings (``[ ]`` when not; no column when no code can be
    fixed) and the rule's name, separated by tabs."""
    counts = Counter(f.code for f in findings)
    fixable = {f.code for f in findings if f.fixable(unsafe_fixes)}
    width = max((len(str(n)) for n in counts.values()), default=1)
    code_width = max((len(c) for c in counts), default=0)
    rows = []
    for code in sorted(counts):
        mark = ("[*] " if code in fixable else "[ ] ") if fixable else ""
        name = registry.RULES_BY_CODE[code].name if code in registry.RULES_BY_CODE else ""
        rows.append(f"{counts[code]:>{width}}\t{code:<{code_width}}\t{mark}{name}\n")
    return "".join(rows)
