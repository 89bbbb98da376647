"""``docs/capabilities.md`` against the fixtures it cites.

The map lists, for every value-flow capability, fixture lines that exercise it: a line with a
finding (``JAX205``) or a line that must stay silent (``silent``), each with a piece of the code
on that line.  Every entry is checked here: the file exists, the quoted code is on that line (so
an entry follows no line that moved), a finding entry is an expected finding of the fixture
(its ``# error:`` marker, the machinery of ``tests/rules/test_fixtures.py``) and one the linter makes,
and a silent entry is a line of code that the linter leaves without any finding.  Every
capability has at least three entries, unless its section declares a gap, which then must be
real (fewer than three entries): a covered capability cannot keep the label."""

import os
import re

import pytest

from fixture_units import ROOT, rule_config, units
from jaxlint.engine.run import lint_files
from markers import expected_markers

MAP = os.path.join(ROOT, "docs", "capabilities.md")
HEADING = re.compile(r"^(#{1,4})\s+(.*\S)\s*$")
ENTRY = re.compile(r"^- `(?P<path>fixtures/[^`:]+):(?P<line>\d+)` (?P<what>JAX\d{3}|silent) `(?P<code>[^`]+)`")
GAP = "**Gap.**"
MIN_SHAPES = 3


def read_map():
    """[(heading, level, [entries], has_gap)] in the order of the document; an entry is
    (path, line, code or "silent", quoted code, text of the map's line)."""
    sections = []
    with open(MAP, encoding="utf-8") as fh:
        for raw in fh:
            line = raw.rstrip("\n")
            h = HEADING.match(line)
            if h:
                sections.append([h.group(2), len(h.group(1)), [], False])
                continue
            if not sections:
                continue
            if line.startswith("- `fixtures/"):
                m = ENTRY.match(line)
                assert m, f"an entry the map's format does not allow: {line!r}"
                sections[-1][2].append((m["path"], int(m["line"]), m["what"], m["code"], line))
            elif line.startswith(GAP):
                sections[-1][3] = True
    return [tuple(s) for s in sections]


SECTIONS = read_map()
ENTRIES = [e for _h, _l, entries, _g in SECTIONS for e in entries]


def capabilities():
    """Sections with no subsection: each is one capability (a section with subsections is a
    group of them)."""
    out = []
    for i, (heading, level, entries, gap) in enumerate(SECTIONS):
        nxt = SECTIONS[i + 1][1] if i + 1 < len(SECTIONS) else 0
        if level > 1 and nxt <= level:
            out.append((heading, entries, gap))
    return out


def unit_of(path):
    """The fixture unit (a module, or the package folder) that ``path`` is linted in."""
    full = os.path.join(ROOT, path)
    for name, files in units():
        if full in files:
            return name, files
    raise AssertionError(f"{path} is not a fixture")


_FINDINGS = {}


def findings_of(path):
    """{(line, code)} the linter reports in ``path``, linted with the rest of its unit, once."""
    name, files = unit_of(path)
    if name not in _FINDINGS:
        found = lint_files(files, rule_config(), jobs=1, display=lambda p: os.path.relpath(p, ROOT)).findings
        _FINDINGS[name] = {(f.path, f.line, f.code) for f in found}
    return {(line, code) for p, line, code in _FINDINGS[name] if p == path}


def test_the_map_has_capabilities_and_entries():
    caps = capabilities()
    assert len(caps) >= 20, [h for h, _e, _g in caps]
    assert len(ENTRIES) >= 3 * len(caps)


@pytest.mark.parametrize("heading,entries,gap", capabilities(), ids=[h for h, _e, _g in capabilities()])
def test_every_capability_has_three_shapes_or_declares_its_gap(heading, entries, gap):
    if gap:
        assert len(entries) < MIN_SHAPES, f"{heading}: {len(entries)} entries; the gap is closed, drop the label"
    else:
        assert len(entries) >= MIN_SHAPES, f"{heading}: {len(entries)} entries, and no gap declared"


def test_no_entry_is_listed_twice_under_one_capability():
    for heading, entries, _gap in capabilities():
        keys = [(p, line, what) for p, line, what, _c, _t in entries]
        assert len(keys) == len(set(keys)), heading


@pytest.mark.parametrize("path,line,what,code,text", ENTRIES, ids=[f"{e[0]}:{e[1]}" for e in ENTRIES])
def test_entry(path, line, what, code, text):
    full = os.path.join(ROOT, path)
    assert os.path.isfile(full), f"{path} does not exist"
    with open(full, encoding="utf-8") as fh:
        source = fh.read()
    lines = source.splitlines()
    assert 1 <= line <= len(lines), f"{path} has {len(lines)} lines"
    assert code in lines[line - 1], f"{path}:{line} is {lines[line - 1].strip()!r}, not the quoted {code!r}"
    marked, _cols = expected_markers(source)
    found = findings_of(path)
    if what == "silent":
        stripped = lines[line - 1].strip()
        assert stripped and not stripped.startswith("#"), f"{path}:{line} is not a line of code"
        assert not {c for ln, c in marked if ln == line}, f"{path}:{line} carries a marker"
        assert not {c for ln, c in found if ln == line}, f"{path}:{line} is flagged"
    else:
        assert (line, what) in marked, f"{path}:{line} does not expect {what}"
        assert (line, what) in found, f"{path}:{line}: the linter does not report {what}"
