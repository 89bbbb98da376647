"""docs/rules.md is every rule's ``--explain`` text, generated, one section per rule under a
heading whose anchor is the rule's code (``#jax101``); the links that findings carry point
there."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from clirun import ROOT, jaxlint
from jaxlint.formats._common import RULES_DOC, rule_url
from jaxlint.formats.rule_docs import GENERATE, rule_section, rules_document
from jaxlint.rules import ALL_RULES, RULES_BY_CODE

DOC = os.path.join(ROOT, RULES_DOC)


def _committed() -> str:
    with open(DOC, encoding="utf-8", newline="") as fh:
        return fh.read()


def test_the_committed_rules_doc_is_current():
    assert _committed() == rules_document(), f"{RULES_DOC} is not what the rules say: regenerate it with `{GENERATE}`"


def _sections(text: str) -> dict:
    """{heading: body} of the document's level-2 sections."""
    parts = re.split(r"^## (.+)\n", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def test_each_rule_has_one_section_with_its_explain_text_and_a_stable_anchor():
    sections = _sections(_committed())
    assert list(sections) == [r.code for r in ALL_RULES]
    for rule in ALL_RULES:
        explained = jaxlint(["--explain", rule.code]).stdout.decode("utf-8")
        assert sections[rule.code] == f"\n```text\n{explained}```\n" + ("\n" if rule is not ALL_RULES[-1] else "")
        # A heading that is only the code has the code in lower case as its anchor on GitHub.
        assert rule_url(rule.code) == f"https://github.com/jaxlint/jaxlint/blob/main/docs/rules.md#{rule.code.lower()}"
        assert f"- [{rule.code}](#{rule.code.lower()}) {rule.name}\n" in _committed()


def _github_anchors(text: str) -> set:
    """The anchors GitHub gives the document's headings: lower case, punctuation other than
    ``-`` and ``_`` dropped, spaces as ``-``, and ``-1``, ``-2``... after repeats."""
    out: set = set()
    fence = None
    for line in text.splitlines():
        m = re.match(r"(`{3,}|~{3,})", line)
        if m and (fence is None or line.startswith(fence)):
            fence = None if fence is not None else m.group(1)
            continue
        heading = re.match(r"#{1,6} (.+)", line) if fence is None else None
        if heading:
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
            anchor, n = slug, 0
            while anchor in out:
                n += 1
                anchor = f"{slug}-{n}"
            out.add(anchor)
    return out


def test_every_rule_url_is_an_anchor_of_the_committed_doc():
    anchors = _github_anchors(_committed())
    for rule in ALL_RULES:
        page, _, anchor = rule_url(rule.code).partition("#")
        assert page.endswith("/" + RULES_DOC)
        assert anchor in anchors, f"{rule_url(rule.code)}: no heading of {RULES_DOC} has that anchor"


def test_github_anchors_skip_fenced_lines_and_number_repeats():
    assert _github_anchors("# A b!\n```text\n## JAX101\n```\n## A b\n") == {"a-b", "a-b-1"}


def test_a_section_fence_is_longer_than_any_backtick_run_in_its_text(monkeypatch):
    rule = RULES_BY_CODE["JAX101"]
    monkeypatch.setattr(rule, "explain", classmethod(lambda cls: "a ```` b\n"))
    assert rule_section(rule) == "## JAX101\n\n`````text\na ```` b\n`````\n"


@pytest.mark.slow  # starts an interpreter
def test_the_script_writes_and_checks_the_doc(tmp_path):
    out = tmp_path / "rules.md"
    script = os.path.join(ROOT, "scripts", "rules_doc.py")
    run = lambda *a: subprocess.run([sys.executable, script, "--output", str(out), *a], capture_output=True, text=True)  # noqa: E731
    assert run("--check").returncode == 1  # no file yet
    assert run().returncode == 0
    assert out.read_text(encoding="utf-8") == _committed()
    assert run("--check").returncode == 0
    out.write_text(_committed().replace("JAX101 (traced-if)", "JAX101 (traced-iff)"), encoding="utf-8")
    stale = run("--check")
    assert (stale.returncode, stale.stderr) == (1, f"{out} is not current: run python scripts/rules_doc.py\n")
