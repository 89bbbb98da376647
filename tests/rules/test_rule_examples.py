"""Every rule's bad/good examples, run as tests (the examples are the rule's docs too)."""

import textwrap

import pytest

from jaxlint import lint_source, selection
from jaxlint.config import Config
from jaxlint.rules import ALL_RULES
from markers import actual, describe, expected_markers

CASES = []
for rule in ALL_RULES:
    for i, src in enumerate(rule.bad):
        CASES.append(pytest.param(rule, src, True, id=f"{rule.code}-bad{i}"))
    for i, src in enumerate(rule.good):
        CASES.append(pytest.param(rule, src, False, id=f"{rule.code}-good{i}"))


@pytest.mark.parametrize("rule,src,bad", CASES)
def test_example(rule, src, bad):
    text = textwrap.dedent(src).lstrip("\n")
    # A rule that is off by default is shown with it enabled on top of the defaults.
    # A preview rule is shown with preview on, as a user opts in to it.
    config = None if rule.default_enabled else Config(select=selection.extend((), (rule.code,)))
    if rule.status == "preview":
        config = Config(select=selection.extend((), (rule.code,)), preview=True)
    findings = lint_source(text, "example.py", config).findings
    want, _ = expected_markers(text)
    got = actual(findings)
    assert got == want, f"missing {describe(want - got)}; unexpected {describe(got - want, findings)}"
    if bad:
        assert any(code == rule.code for _, code in want), "a bad example must show the rule firing"
    else:
        assert not want


def test_every_rule_has_docs_and_examples():
    for rule in ALL_RULES:
        doc = rule.docs()
        assert rule.code and rule.name and rule.message and rule.fix and rule.prevents
        for heading in ("What it does", "Why is this bad?", "Example", "Use instead"):
            assert heading in doc, (rule.code, heading)
        if rule.code not in ("JAX001", "JAX002"):  # nothing to show: a file that fails to parse, a bug
            assert rule.bad and rule.good, rule.code


def test_codes_are_flake8_compatible_and_unique():
    import re

    codes = [r.code for r in ALL_RULES]
    assert len(codes) == len(set(codes))
    for c in codes:
        assert re.fullmatch(r"[A-Z]{1,3}[0-9]{0,3}", c)
