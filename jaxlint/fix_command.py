"""What ``--fix``, ``--unsafe-fixes``, ``--fix-diff`` and ``--show-fixes`` print: the command line
declares the flags, the engine runs the fix rounds (jaxlint.engine.fixing) and this module
reports them."""

from __future__ import annotations

import sys
from typing import Sequence

from jaxlint.engine.fixing import decode_file, fix_text, unified_diff, unsafe_fixable
from jaxlint.findings import Finding
from jaxlint.fixes.declare import SAFE
from jaxlint.formats import format_text


def fix_stdin(data: bytes, name: str, cfg, rules, args) -> int:
    """``--stdin-filename NAME --fix``: the fixed source on standard output (``--fix-diff``: its
    diff), the findings that remain on standard error."""
    try:
        text, _, _ = decode_file(data)
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
        ("--fix", [f for f in remaining if f.fixable(False)]),
        ("--fix --unsafe-fixes", [f for f in remaining if f.fixable(True) and f.autofix["safety"] != SAFE]),
    )
    for flags, found in groups:
        if found:
            lines.append(f"Fixable with {flags}:\n")
            lines += [item(f) for f in found]
    return "".join(lines)
