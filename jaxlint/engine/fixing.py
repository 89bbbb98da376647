"""The fix rounds: apply the fixes of a source's findings (or of a run's files) until nothing
changes, keeping only results that still parse.  ``--fix``, ``--fix-diff``, the language server's
"fix all" and its quick fixes call these; the fix builders (jaxlint.fixes) only say what to
change."""

from __future__ import annotations

import codecs
import difflib
import io
import tokenize
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import libcst as cst

from jaxlint.atomic import describe, write_bytes
from jaxlint.engine import edits
from jaxlint.engine.pipeline import lint_source
from jaxlint.engine.run import lint_files
from jaxlint.engine.source import read_regular_file
from jaxlint.findings import Finding
from jaxlint.source_text import decode_source

# Each round re-lints the fixed text: a fix can reveal or settle another finding.  Real fixes
# settle in one or two rounds; the bound stops a pair of fixes that would undo each other.
MAX_ROUNDS = 4


@dataclass
class FixResult:
    source: str
    fixed: List[Finding] = field(default_factory=list)  # findings whose fix was applied
    remaining: List[Finding] = field(default_factory=list)  # findings of the final source
    refused: Optional[str] = None  # why the last round's fixes were not kept


def parse_error(source: str) -> Optional[str]:
    """Why ``source`` is not a Python module any more, or None."""
    try:
        compile(source, "<fixed>", "exec", dont_inherit=True, flags=0x400)  # ast.PyCF_ONLY_AST
        cst.parse_module(source)
    except SyntaxError as e:
        return f"syntax error: {e.msg} (line {e.lineno})"
    except cst.ParserSyntaxError as e:
        return f"syntax error: {e.message} (line {e.raw_line})"
    except Exception as e:  # noqa: BLE001 - any failure to parse means: do not write it
        return f"{type(e).__name__}: {e}"
    return None


def apply_round(candidates: List[Finding], text: str) -> Tuple[str, List[Finding], Optional[str]]:
    """One round of fixes on ``text``: those of ``candidates`` whose edits do not overlap, taken
    in source order.  Returns the new text, the findings it fixed, and why the new text is
    refused (it does not parse), or None."""
    candidates = sorted(candidates, key=lambda f: (f.line, f.column, f.code))
    chosen = edits.choose([f.autofix for f in candidates], text)
    by_id = {id(f.autofix): f for f in candidates}
    new = edits.apply(chosen, text)
    error = parse_error(new) if new != text else None
    return new, [by_id[id(c)] for c in chosen], error


def fix_source(source: str, lint: Callable[[str], List[Finding]], unsafe: bool = False) -> FixResult:
    """Fix ``source`` with the findings ``lint(text)`` gives.  Fixes that touch the same text
    are applied one per round; a round whose result does not parse is dropped (the source of
    the round before is kept and the reason reported)."""
    result = FixResult(source)
    text = source
    findings = lint(text)
    for _ in range(MAX_ROUNDS):
        candidates = [f for f in findings if f.fixable(unsafe)]
        if not candidates:
            break
        new, fixed, error = apply_round(candidates, text)
        if new == text:
            break
        if error is not None:
            result.refused = error
            break
        result.fixed.extend(fixed)
        text = new
        findings = lint(text)
    result.source = text
    result.remaining = findings
    return result


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


def decode_file(data: bytes) -> Tuple[str, str, bool]:
    """(text, encoding, had a BOM)."""
    enc, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    bom = data.startswith(codecs.BOM_UTF8)
    return decode_source(data), ("utf-8" if enc == "utf-8-sig" else enc), bom


def encode_file(text: str, encoding: str, bom: bool) -> bytes:
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

        def lint(sources):
            return lint_files((), config_for, files=paths, display=display, sources=sources).findings

    states = {}
    for path in paths:
        name = display(path)
        try:
            data = read_regular_file(path)
            text, encoding, bom = decode_file(data)
        except (OSError, UnicodeDecodeError, SyntaxError, LookupError):
            continue  # reported as JAX001 by the lint that follows
        states[name] = _File(path, name, text, encoding, bom, text)
    sources = {}
    findings = lint(sources)
    for _ in range(MAX_ROUNDS):
        candidates = {}
        for f in findings:
            st = states.get(f.path)
            if st is not None and not st.done and f.fixable(unsafe):
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
                data = encode_file(new, st.encoding, st.bom)
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


def unsafe_fixable(findings: Sequence[Finding]) -> int:
    return sum(1 for f in findings if f.fixable(True) and not f.fixable(False))
