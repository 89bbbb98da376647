"""``# noqa`` suppressions, read exactly as flake8 reads them, so that the ``jaxlint`` command
and the flake8 plugin agree on every comment.

* ``# noqa`` silences every finding of its line, ``# noqa: JAX101,JAX3`` the listed codes and
  code prefixes.  The word ``noqa`` may be written in any case; the codes are compared as
  written, so ``# noqa: jax101`` silences nothing (both tools then report the finding, and
  jaxlint says why: JAX003).
* A comment applies to the whole logical line when the line is continued by a backslash or by a
  multi-line string (flake8's mapping of physical lines to ``noqa`` lines).
* A line of its own ``# flake8: noqa`` or ``# jaxlint: noqa`` skips the file.
  ``# jaxlint: noqa: JAX3`` silences only those codes in the whole file.

Two findings come from the comments themselves: JAX003, a ``noqa`` code that is not a jaxlint
code (a typo silences nothing); JAX004 (opt-in), a jaxlint code that silences nothing.  Which
codes exist, and the rules of those two findings, are read from the rule table the engine passes
in (the rules stand above this module).
"""

from __future__ import annotations

import io
import re
import tokenize
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from jaxlint import selectors
from jaxlint.findings import Finding
from jaxlint.selectors import RuleTable
from jaxlint.source_text import LINE_END

# flake8's own grammar (flake8.defaults.NOQA_INLINE_REGEXP and NOQA_FILE), as patterns that
# ``re`` compiles (and keeps) once a module has a ``noqa``: most have none.
INLINE = r"(?i)# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?"
FILE = r"(?i)\s*# (?P<tool>flake8|jaxlint)[:=]\s*noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?"
_ANY_RE = re.compile(r"noqa", re.IGNORECASE)
_CODE_RE = re.compile(r"[^,\s]+")
OWN_PREFIX = "JAX"


def codes_of(codes_str: str) -> Tuple[str, ...]:
    return tuple(c for c in re.split(r"[,\s]+", codes_str) if c)


def inline_codes(line: str) -> Optional[Tuple[str, ...]]:
    """None: no ``# noqa`` on the line; (): a bare one (everything); else the codes listed."""
    m = re.search(INLINE, line)
    if m is None:
        return None
    if m.group("codes") is None:
        return ()
    return codes_of(m.group("codes"))


def silences(codes: Optional[Tuple[str, ...]], code: str) -> bool:
    if codes is None:
        return False
    return not codes or code in codes or code.startswith(codes)


class FileDirectives:
    """The ``noqa`` comments of a module.  The file-wide directives are read from the lines;
    the per-line mapping and the comment tokens need the tokenizer, which costs about a tenth of
    a parse, so they are computed on first use: most modules with a ``noqa`` somewhere have no
    finding for it to silence and no jaxlint code in it to check."""

    def __init__(self, text: str, lines: List[str], skip_file: bool, file_codes: Tuple[str, ...]):
        self.skip_file = skip_file
        self.file_codes = file_codes
        self._text = text
        self._lines = lines
        self._tokens: Optional[Tuple[Dict[int, str], List[Tuple[int, int, str]]]] = None

    @property
    def noqa_lines(self) -> Dict[int, str]:
        """line -> the text flake8 searches for its noqa comment (its logical line)."""
        return self._tokenized()[0]

    @property
    def comments(self) -> List[Tuple[int, int, str]]:
        """(line, 0-based column, text) of comment tokens with noqa."""
        return self._tokenized()[1]

    def may_name_own_codes(self) -> bool:
        """False when no ``# noqa:`` anywhere in the text (comments or not) lists a code with
        jaxlint's prefix: then no comment can give JAX003 or JAX004."""
        for m in re.finditer(INLINE, self._text):
            codes = m.group("codes")
            if codes is not None and OWN_PREFIX in codes.upper():
                return True
        return False

    def may_have_bare(self) -> bool:
        """Whether a bare ``# noqa`` (no codes) may be in the text."""
        return any(m.group("codes") is None for m in re.finditer(INLINE, self._text))

    def _tokenized(self) -> Tuple[Dict[int, str], List[Tuple[int, int, str]]]:
        if self._tokens is None:
            self._tokens = _tokenize(self._text, self._lines)
        return self._tokens


def scan(text: str) -> Optional[FileDirectives]:
    """The suppressions of a module, or None when it has none (the common, cheap case)."""
    if _ANY_RE.search(text) is None:
        return None
    lines = text.splitlines(keepends=True)
    skip = False
    file_codes: List[str] = []
    directive = re.compile(FILE)
    for line in lines:
        m = directive.match(line)
        if m is None:
            continue
        if m.group("tool").lower() == "jaxlint" and m.group("codes"):
            file_codes.extend(codes_of(m.group("codes")))
        else:
            skip = True
    return FileDirectives(text, lines, skip, tuple(file_codes))


def _tokenize(text: str, lines: List[str]) -> Tuple[Dict[int, str], List[Tuple[int, int, str]]]:
    mapping: Dict[int, str] = {}
    comments: List[Tuple[int, int, str]] = []
    try:
        lo, hi = len(lines) + 2, -1
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            if tok.type == tokenize.COMMENT and _ANY_RE.search(tok.string):
                comments.append((tok.start[0], tok.start[1], tok.string))
            lo, hi = min(lo, tok.start[0]), max(hi, tok.end[0])
            if tok.type in (tokenize.NL, tokenize.NEWLINE):
                joined = "".join(lines[lo - 1 : hi])
                for n in range(lo, hi + 1):
                    mapping[n] = joined
                lo, hi = len(lines) + 2, -1
    except (tokenize.TokenError, SyntaxError, IndentationError):
        # As flake8 does when it cannot tokenize: each physical line stands for itself.
        mapping = {}
        comments = []
    return mapping, comments


def _line_text(d: FileDirectives, lines: Sequence[str], line: int) -> str:
    got = d.noqa_lines.get(line)
    if got is not None:
        return got
    return lines[line - 1] if 0 < line <= len(lines) else ""


def suppress(findings: Sequence[Finding], text: str, directives: Optional[FileDirectives] = None) -> List[Finding]:
    """The findings no ``# noqa`` silences."""
    d = directives if directives is not None else scan(text)
    if d is None or not findings:
        return list(findings)
    if d.skip_file:
        return []
    lines = text.splitlines()
    out = []
    for f in findings:
        if d.file_codes and f.code.startswith(d.file_codes):
            continue
        codes = inline_codes(_line_text(d, lines, f.line))
        if f.code == "JAX004" and codes == ():
            pass  # a bare ``# noqa`` does not silence the report that it silences nothing
        elif silences(codes, f.code):
            continue
        out.append(f)
    return out


def meta_finding(rule, path: str, line: int, col0: int, length: int, autofix=None, **fields) -> Finding:
    """The finding of one of the linter's own rules, ``length`` characters from 0-based ``col0``."""
    return Finding(
        path=path,
        line=line,
        column=col0 + 1,
        end_line=line,
        end_column=col0 + 1 + max(1, length),
        code=rule.code,
        name=rule.name,
        message=rule.message.format(**fields),
        fix=rule.fix.format(**fields) if "{" in rule.fix else rule.fix,
        autofix=autofix,
    )


def _edit(line: int, start: int, end: int, text: str) -> dict:
    """An edit of one line, given 0-based columns (end exclusive)."""
    return {"text": text, "line": line, "column": start + 1, "end_line": line, "end_column": end + 1}


def _removal(physical: str, line: int, col0: int, comment: str, m) -> Optional[dict]:
    """The edit that removes the directive ``m`` (a match in the comment token ``comment`` at
    ``col0`` of ``physical``): with the blanks before it when nothing follows it in the
    comment (``x = 1  # noqa: JAX101`` -> ``x = 1``), the directive alone when another comment
    follows (``# noqa: JAX101  # why`` -> ``# why``).  None when other text follows it
    (``# noqa: JAX101 because``): whether that text belongs to the suppression, the comment
    does not say."""
    rest = comment[m.end():]
    if rest.strip():
        if not rest.lstrip().startswith("#"):
            return None
        return _edit(line, col0 + m.start(), col0 + m.end() + (len(rest) - len(rest.lstrip())), "")
    before = physical[: col0 + m.start()]
    start = len(before.rstrip())
    return _edit(line, start, col0 + len(comment), "")


def _code_removal(line: int, col0: int, m, unused: List[str]) -> Optional[dict]:
    """The edit that takes ``unused`` out of the code list of ``m``, keeping the others."""
    codes = list(_CODE_RE.finditer(m.group("codes")))
    kept = [c.group() for c in codes if c.group() not in unused]
    if not kept or not codes:
        return None
    base = col0 + m.start("codes")
    return _edit(line, base + codes[0].start(), base + codes[-1].end(), ", ".join(kept))


def directive_findings(
    findings: Sequence[Finding],
    path: str,
    directives: Optional[FileDirectives],
    enabled: Set[str],
    rules: RuleTable,
) -> List[Finding]:
    """JAX003 for ``noqa`` codes that are not jaxlint codes (the codes of ``rules``); JAX004 for
    jaxlint codes that silence nothing (reported only for codes whose rules all ran: otherwise
    nobody can tell)."""
    if directives is None or not ({"JAX003", "JAX004"} & enabled) or directives.skip_file:
        return []
    if not directives.may_name_own_codes() and not ("JAX004" in enabled and directives.may_have_bare()):
        return []
    known = tuple(rules)
    # A comment serves every line of its logical line (the same joined text in the mapping).
    def group(line: int):
        joined = directives.noqa_lines.get(line)
        return id(joined) if joined is not None else ("line", line)

    by_group: Dict[object, List[str]] = {}
    for f in findings:
        by_group.setdefault(group(f.line), []).append(f.code)
    out: List[Finding] = []
    lines = LINE_END.split(directives._text)  # numbered as the tokenizer numbers them
    for line, col0, comment in directives.comments:
        m = re.search(INLINE, comment)
        if m is None:
            continue
        physical = lines[line - 1] if 0 < line <= len(lines) else comment
        if m.group("codes") is None:
            # A bare ``# noqa`` silences every code: it is unused when no finding is on its
            # line, which only a run of every rule can tell (a rule that did not run may be
            # what it is for).  Another tool's finding may need it, so removing it is unsafe.
            if "JAX004" in enabled and not by_group.get(group(line)) and set(known) <= set(enabled):
                edit = _removal(physical, line, col0, comment, m)
                fix = {"title": "Remove the `# noqa` comment", "safety": "unsafe", "edits": [edit]} if edit else None
                out.append(
                    meta_finding(
                        rules["JAX004"], path, line, col0 + m.start(), len(m.group().rstrip()), fix,
                        what="blanket `noqa`: no finding on its line", unused="`# noqa` comment, unless another tool needs it",
                    )
                )
            continue
        base = col0 + m.start("codes")
        unused: List[str] = []
        first_unused = None
        for cm in _CODE_RE.finditer(m.group("codes")):
            code = cm.group()
            if not code.upper().startswith(OWN_PREFIX):
                continue  # another tool's code (E501, F401): not ours to judge
            start = base + cm.start()
            if not any(k.startswith(code) for k in known):
                if "JAX003" in enabled:
                    hint = selectors.suggestion(code.upper(), rules)
                    if code != code.upper() and selectors.is_known(code.upper(), rules):
                        detail = f"`# noqa` codes are case-sensitive: '{code}' silences nothing (did you mean '{code.upper()}'?)"
                    elif hint:
                        detail = f"unknown rule code '{code}' in `# noqa` silences nothing (did you mean '{hint}'?)"
                    else:
                        detail = f"unknown rule code '{code}' in `# noqa` silences nothing"
                    out.append(meta_finding(rules["JAX003"], path, line, start, len(code), detail=detail))
                continue
            if "JAX004" not in enabled:
                continue
            covered = [k for k in known if k.startswith(code)]
            if not all(k in enabled for k in covered):
                continue  # a rule this run did not run may be what the comment is for
            if not any(c.startswith(code) for c in by_group.get(group(line), ())):
                unused.append(code)
                if first_unused is None:
                    first_unused = (start, len(code))
        if unused and first_unused is not None:
            # Removing jaxlint codes that silence nothing changes nothing else: a safe fix.
            edit = _code_removal(line, col0, m, unused) or _removal(physical, line, col0, comment, m)
            words = "code" if len(unused) == 1 else "codes"
            title = f"Remove unused `noqa` {words} {', '.join(unused)}"
            out.append(
                meta_finding(
                    rules["JAX004"], path, line, first_unused[0], first_unused[1],
                    {"title": title, "safety": "safe", "edits": [edit]} if edit else None,
                    what=f"`noqa` code: {', '.join(unused)}", unused=f"{words} {', '.join(unused)}",
                )
            )
    return out


def retract_unused(findings: Iterable[Finding], silenced: Iterable[Tuple[str, int, str]]) -> List[Finding]:
    """Drop JAX004 reports made before the cross-module phase when that phase found (and a
    ``# noqa`` silenced) a finding on their line: the comment was in use after all."""
    used = {(path, line) for path, line, _code in silenced}
    return [f for f in findings if not (f.code == "JAX004" and (f.path, f.line) in used)]


def apply_directives(findings: List[Finding], text: str, path: str, enabled, suppress_them: bool, rules: RuleTable) -> List[Finding]:
    """A module's findings with its ``# noqa`` comments applied: their own findings
    (JAX003/JAX004) added, then, unless flake8 applies the suppressions itself
    (``suppress_them=False``), the suppressions."""
    directives = scan(text)
    if directives is None:
        return findings
    if directives.skip_file:
        return []  # flake8 skips such a file before any plugin runs, and so does jaxlint
    extra = directive_findings(findings, path, directives, enabled, rules)
    if extra:
        findings = sorted(findings + extra, key=Finding.sort_key)
    if suppress_them:
        return suppress(findings, text, directives)
    if directives.file_codes:  # flake8 knows nothing of `# jaxlint: noqa: CODES`
        return [f for f in findings if not f.code.startswith(directives.file_codes)]
    return findings
