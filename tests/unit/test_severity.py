"""A rule's severity follows from what it prevents, and the README says which rules are errors."""

import json
import os
import re

from jaxlint.formats._common import severity
from jaxlint.formats.gitlab import gitlab_severity
from jaxlint.formats.rule_list import rule_json
from jaxlint.rules import ALL_RULES, RULES_BY_CODE
from jaxlint.rules.severity import ERROR, WARNING, rule_severity

from clirun import ROOT


def test_an_error_jax_raises_is_an_error_and_code_that_runs_is_a_warning():
    expected = {
        "JAX001": ERROR,  # the file does not parse
        "JAX002": WARNING,  # a jaxlint bug
        "JAX101": ERROR,
        "JAX201": ERROR,
        "JAX204": WARNING,  # recompiles: the code runs
        "JAX205": WARNING,
        "JAX209": ERROR,
        "JAX301": WARNING,  # frozen
        "JAX304": ERROR,  # TypeError: JAX arrays are immutable
        "JAX307": WARNING,  # stale
        "JAX308": ERROR,  # TraceContextError
        "JAX309": ERROR,  # UnexpectedTracerError once the escaped closure is called
        "JAX401": WARNING,
        "JAX501": WARNING,  # wrong result
        "JAX601": WARNING,  # fails on the targeted JAX, not necessarily the one the code runs on
        "JAX602": WARNING,
    }
    assert {c: severity(c) for c in expected} == expected


def test_every_face_reads_the_rules_severity():
    listed = {r["code"]: r["severity"] for r in json.loads(rule_json())}
    assert listed == {r.code: rule_severity(r) for r in ALL_RULES}
    assert {gitlab_severity(r.code) for r in ALL_RULES if rule_severity(r) == ERROR and r.prevents.kind != "none"} == {"major"}
    assert [gitlab_severity(c) for c in ("JAX001", "JAX002", "JAX003", "JAX101", "JAX301")] == ["critical", "info", "info", "major", "minor"]


def _codes(text: str) -> set:
    """``JAX1xx``, ``JAX201-203``, ``JAX002-JAX004`` and single codes, expanded to the codes of
    the registry they name."""
    out = set()
    for first, last in re.findall(r"\b(JAX\d(?:\d\d|xx))(?:-(?:JAX)?(\d{3}))?", text):
        if first.endswith("xx"):
            out |= {c for c in RULES_BY_CODE if c.startswith(first[:4])}
        elif last:
            out |= {c for c in RULES_BY_CODE if first <= c <= "JAX" + last}
        else:
            out.add(first)
    return out


def test_readme_names_the_rules_of_each_severity():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    paragraph = readme[readme.index("Severity follows from what a rule prevents") :]
    paragraph = paragraph[: paragraph.index("\n\n")]
    errors = paragraph[paragraph.index("**error**") : paragraph.index("**warning**")]
    warnings = paragraph[paragraph.index("**warning**") : paragraph.index("GitLab")]
    assert _codes(errors) == {r.code for r in ALL_RULES if rule_severity(r) == ERROR}
    assert _codes(warnings) == {r.code for r in ALL_RULES if rule_severity(r) == WARNING}
