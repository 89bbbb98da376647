"""What ``--fix``, ``--unsafe-fixes``, ``--fix-diff``, ``--show-fixes`` and ``--add-noqa`` do
to files and standard input.  The command line only declares the flags and calls these."""

from __future__ import annotations

import codecs
import difflib
import sys
import tokenize
import io
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from jaxlint.atomic import describe, write_bytes
from jaxlint.engine.pipeline import lint_source
from jaxlint.engine.source import read_regular_file
from jaxlint.source_text import decode_source
from jaxlint.findings import Finding
from jaxlint.fixes.apply import MAX_ROUNDS, FixResult, applicable, apply_round, fix_source, parse_error
from jaxlint.fixes.declare import SAFE
from jaxlint.formats import format_text


@dataclass
class Outcome:
    fixed: List[Finding] = field(default_factory=list)
    changed: List[str] = field(default_factory=list)  # display paths whose source changed
    diffs: List[str] = field(default_factory=list)
    refused: List[Tuple[str, str]] = field(default_factory=list)  # (display path, reason)
    unsafe_more: int = 0  # findings left that an unsafe fix could handle
    failed: List[Tuple[str, str]] = field(default_factory=list)  # (display path, why it could not be written)
    # display path -> the fixes applied to it, round by round (their findings, whose
    # ``autofix`` edits are spans in the text of that round)
    applied: Dict[str, List[List[Finding]]] = field(default_factory=dict)
    remaining: List[Finding] = field(default_factory=list)  # the run's findings after the fixes


def _decode(data: bytes) -> Tuple[str, str, bool]:
    """(text, encoding, had a BOM)."""
    enc, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    bom = data.startswith(codecs.BOM_UTF8)
    return decode_source(data), ("utf-8" if enc == "utf-8-sig" else enc), bom


def _encode(text: str, encoding: str, bom: bool) -> bytes:
    return (codecs.BOM_UTF8 if bom else b"") + text.encode(encoding)


def fix_text(text: str, display: str, cfg, rules, unsafe: bool) -> FixResult:
    return fix_source(text, lambda t: lint_source(t, display, cfg, rules, facts=False).findings, unsafe=unsafe)


def unified_diff(before: str, after: str, display: str) -> str:
    return "".join(
        difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{display}", f"b/{display}")
    )


@dataclass
class _File:
    """One file while the fix rounds run: its text so far and the fixes each round applied."""

    path: str
    name: str  # the path its findings report
    original: str
    encoding: str
    bom: bool
    text: str = ""
    rounds: List[List[Finding]] = field(default_factory=list)
    refused: Optional[str] = None  # why a round's fixes were not kept; no round follows
    unencodable: bool = False  # the fixed text cannot be written in the file's encoding
    done: bool = False


# The run's findings, linting ``sources`` (path -> bytes) instead of those files' contents.
RunLint = Callable[[Mapping[str, bytes]], List[Finding]]


def fix_files(
    files: Sequence[str], display: Callable[[str], str], config_for, write: bool, unsafe: bool, lint: Optional[RunLint] = None
) -> Outcome:
    """Fix the files as one run, with the settings that apply to each (``config_for(path)``);
    write them back when ``write``, else collect their diffs.

    Each round lints the whole run, so the fixes are those of the findings the report shows,
    the cross-module phase's included (a helper's finding is fixed in the helper's module),
    and a ``noqa`` comment that only a cross-module finding uses is not taken for an unused
    one.  A round applies, in each file, the fixes whose edits do not overlap, and keeps a
    file's result only if it still parses.  ``lint(sources)``: the run's findings with the
    fixed texts so far read instead of the files (by default :func:`lint_files` over
    ``files``).  What ``Outcome.fixed`` counts is what the rounds applied to the files that
    were written (or, without ``write``, diffed)."""
    out = Outcome()
    paths = [p for p in files if p != "-"]
    if lint is None:
        from jaxlint.engine.run import lint_files

        def lint(sources):
            return lint_files((), config_for, files=paths, display=display, sources=sources).findings

    states = {}
    for path in paths:
        name = display(path)
        try:
            data = read_regular_file(path)
            text, encoding, bom = _decode(data)
        except (OSError, UnicodeDecodeError, SyntaxError, LookupError):
            continue  # reported as JAX001 by the lint that follows
        states[name] = _File(path, name, text, encoding, bom, text)
    sources = {}
    findings = lint(sources)
    for _ in range(MAX_ROUNDS):
        candidates = {}
        for f in findings:
            st = states.get(f.path)
            if st is not None and not st.done and applicable(f, unsafe):
                candidates.setdefault(f.path, []).append(f)
        changed = False
        for name, found in candidates.items():
            st = states[name]
            new, fixed, error = apply_round(found, st.text)
            if new == st.text:
                continue
            if error is not None:
                st.refused, st.done = error, True
                continue
            try:
                data = _encode(new, st.encoding, st.bom)
            except UnicodeEncodeError:
                # Left as it was: no part of its fixes can be written.
                st.text, st.rounds, st.unencodable, st.done = st.original, [], True, True
                sources.pop(st.path, None)
                changed = True
                continue
            st.rounds.append(fixed)
            st.text = new
            sources[st.path] = data
            changed = True
        if not changed:
            break
        findings = lint(sources)
    for st in states.values():
        if st.refused:
            out.refused.append((st.name, st.refused))
        if st.unencodable and write:
            out.failed.append((st.name, f"cannot encode the fixed text as {st.encoding}"))
        if st.text == st.original:
            continue
        if write:
            try:
                write_bytes(st.path, sources[st.path])
            except OSError as e:
                # The file is as it was; the other files are still fixed.
                out.failed.append((st.name, describe(e)))
                continue
        out.fixed.extend(f for r in st.rounds for f in r)
        out.applied[st.name] = st.rounds
        out.changed.append(st.name)
        if not write:
            out.diffs.append(unified_diff(st.original, st.text, st.name))
    out.remaining = findings
    if not unsafe:
        out.unsafe_more = unsafe_fixable(findings)
    return out


def fix_stdin(data: bytes, name: str, cfg, rules, args) -> int:
    """``--stdin-filename NAME --fix``: the fixed source on standard output (``--fix-diff``: its
    diff), the findings that remain on standard error."""
    try:
        text, _, _ = _decode(data)
    except (UnicodeDecodeError, SyntaxError, LookupError):
        sys.stdout.buffer.write(data)
        return 1
    result = fix_text(text, name, cfg, rules, args.unsafe_fixes)
    if getattr(args, "fix_diff", False):
        sys.stdout.write(unified_diff(text, result.source, name))
    else:
        sys.stdout.write(result.source)
    sys.stdout.flush()
    sys.stderr.write(format_text(result.remaining))
    if result.refused:
        print(f"jaxlint: error: {name}: fixes not applied, the result would not parse ({result.refused})", file=sys.stderr)
    if not args.quiet:
        more = 0 if args.unsafe_fixes else unsafe_fixable(result.remaining)
        print(summary(len(result.fixed), more, not getattr(args, "fix_diff", False)), file=sys.stderr)
    if getattr(args, "fix_diff", False):
        return 1 if result.source != text else 0
    if getattr(args, "exit_zero", False):
        return 0
    changed = getattr(args, "exit_non_zero_on_fix", False) and result.source != text
    return 1 if result.remaining or changed else 0


def unsafe_fixable(findings: Sequence[Finding]) -> int:
    return sum(1 for f in findings if applicable(f, unsafe=True) and not applicable(f, unsafe=False))


def summary(fixed: int, more: int, applied: bool = True) -> str:
    """``more``: findings left that an unsafe fix could handle."""
    verb = "Fixed" if applied else "Would fix"
    text = f"{verb} {fixed} finding{'s' if fixed != 1 else ''}"
    if more:
        text += f" ({more} more fixable with --unsafe-fixes)"
    return text + "."


def show_fixes(fixed: Sequence[Finding], remaining: Sequence[Finding], fixing: bool, unsafe: bool) -> str:
    """``--show-fixes``: what was fixed, and what could still be fixed, with which flags."""

    def item(f: Finding) -> str:
        return f"  {f.path}:{f.line}:{f.column}: {f.code} {f.autofix['title']}\n"

    lines = []
    if fixing:
        lines.append(f"Fixed {len(fixed)} finding{'s' if len(fixed) != 1 else ''}:\n" if fixed else "No fixes applied.\n")
        lines += [item(f) for f in fixed]
    groups = (
        ("--fix", [f for f in remaining if applicable(f, unsafe=False)]),
        ("--fix --unsafe-fixes", [f for f in remaining if applicable(f, unsafe=True) and f.autofix["safety"] != SAFE]),
    )
    for flags, found in groups:
        if found:
            lines.append(f"Fixable with {flags}:\n")
            lines += [item(f) for f in found]
    return "".join(lines)


def add_noqa_to_files(
    findings: Sequence[Finding], real_path: Callable[[str], Optional[str]], failed: Optional[List[Tuple[str, str]]] = None
) -> Tuple[int, int]:
    """(comments added, files changed) for ``--add-noqa``; files that could not be written are
    appended to ``failed`` as (display path, reason)."""
    from jaxlint.fixes.noqa import add_noqa  # --add-noqa only: --fix and --fix-diff never load it

    by_path = {}
    for f in findings:
        by_path.setdefault(f.path, []).append(f)
    added = files = 0
    for display, fs in sorted(by_path.items()):
        path = real_path(display)
        if path is None:
            continue
        try:
            text, encoding, bom = _decode(read_regular_file(path))
        except (OSError, UnicodeDecodeError, SyntaxError, LookupError):
            continue
        new, n = add_noqa(text, fs)
        if n and parse_error(new) is None:
            try:
                write_bytes(path, _encode(new, encoding, bom))
            except (OSError, UnicodeEncodeError) as e:
                if failed is not None:
                    failed.append((display, describe(e) if isinstance(e, OSError) else f"cannot encode as {encoding}"))
                continue
            added += n
            files += 1
    return added, files
