"""The registry finds every rule in the family packages, and the README's table lists them."""

import json
import os
import re
import textwrap

import pytest

from jaxlint.config import Config, ConfigError, parse_table
from jaxlint.rules import ALL_RULES, RULES_BY_CODE, rules_for, selected_rules
from jaxlint.analysis.jax.jax_api import TRACER_ERROR_CLASSES
from jaxlint.rules.prevents import KINDS

from clirun import ROOT


def test_rules_are_sorted_by_code_and_unique():
    codes = [r.code for r in ALL_RULES]
    assert codes == sorted(codes)
    assert len(codes) == len(set(codes))
    assert codes[:2] == ["JAX001", "JAX002"]


def test_each_rule_lives_in_its_family_package_one_per_module():
    modules = [r.__module__ for r in ALL_RULES]
    assert len(modules) == len(set(modules))
    for r in ALL_RULES:
        family = r.__module__.split(".")[2]
        assert r.__module__.count(".") == 3, r.__module__
        assert r.__module__.rsplit(".", 1)[1] == r.name.replace("-", "_"), (r.code, r.__module__)
        assert family, r.code


def test_every_rule_declares_what_it_prevents():
    for r in ALL_RULES:
        p = r.prevents
        assert p.kind in KINDS, r.code
        assert p.description, r.code
        if p.kind == "raises":
            assert p.errors and p.stage in ("trace", "call", "after"), r.code
    assert RULES_BY_CODE["JAX101"].prevents.kind == "raises"
    assert RULES_BY_CODE["JAX301"].prevents.kind == "frozen"


def test_a_tracer_type_error_is_one_of_the_tracer_conversion_errors():
    """A try/except TypeError mutes only findings whose every error JAX raises because the value
    is a tracer; a TypeError the rule prevents must be named with the message that says so."""
    muted = [r for r in ALL_RULES if r.prevents.tracer_type_error]
    assert "JAX101" in {r.code for r in muted}
    for r in muted:
        assert r.prevents.kind == "raises" and r.prevents.stage == "trace", r.code
        for e in r.prevents.errors:
            assert e.exception in TRACER_ERROR_CLASSES or (e.exception == "TypeError" and e.message), (r.code, e)


def test_only_errors_are_declared_to_fire_under_grad():
    under_grad = {r.code for r in ALL_RULES if r.prevents.under_grad}
    assert "JAX107" in under_grad
    assert all(RULES_BY_CODE[c].prevents.kind == "raises" for c in under_grad)
    assert RULES_BY_CODE["JAX401"].prevents.kind == "recompiles"
    assert RULES_BY_CODE["JAX001"].prevents.kind == "none"


def test_readme_table_lists_every_rule():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    rows = re.findall(r"^\| (JAX\d{3}) \| ([a-z0-9-]+) \|", readme, re.M)
    assert len(rows) == len(set(rows))
    assert sorted(rows) == [(r.code, r.name) for r in ALL_RULES]


@pytest.fixture
def a_preview_rule(monkeypatch):

    rule = RULES_BY_CODE["JAX401"]
    monkeypatch.setattr(rule, "status", "preview")
    return rule


def test_preview_rules_run_only_with_preview(a_preview_rule):
    code = a_preview_rule.code
    assert code not in {r.code for r in selected_rules()}
    assert code not in {r.code for r in selected_rules(select=(code,))}
    assert code in {r.code for r in selected_rules(preview=True)}
    assert code in {r.code for r in rules_for(Config(preview=True))}
    assert code not in {r.code for r in rules_for(Config(preview=True, ignore=(code,)))}


def test_preview_config_key():
    assert parse_table({"preview": True}, rules=RULES_BY_CODE).preview is True
    assert parse_table({}, rules=RULES_BY_CODE).preview is False
    with pytest.raises(ConfigError):
        parse_table({"preview": "yes"}, rules=RULES_BY_CODE)


def test_preview_command_line_flag(a_preview_rule, tmp_path, monkeypatch, capsys):
    from jaxlint import cli

    src = tmp_path / "m.py"
    src.write_text(
        "import jax\n\n\ndef f(x):\n    return jax.jit(lambda v: v + 1)(x)\n\n\nfor i in range(3):\n    f(i)\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    assert cli.main(["--no-cache", "--format", "json", "m.py"]) == 0
    capsys.readouterr()
    assert cli.main(["--no-cache", "--preview", "--format", "json", "m.py"]) == 1
    assert '"JAX401"' in capsys.readouterr().out


def test_a_rule_with_an_unknown_status_is_refused_wherever_it_sits(tmp_path, monkeypatch):
    import sys

    from jaxlint.rules.registry import RegistryError, discover_rules

    family = tmp_path / "fakerules" / "family"
    family.mkdir(parents=True)
    (tmp_path / "fakerules" / "__init__.py").write_text("")
    (family / "__init__.py").write_text("")
    # the bad status is on the first rule of its family, not the last
    for name, code, status in (("a_rule", "JAX990", "beta"), ("b_rule", "JAX991", "stable")):
        (family / f"{name}.py").write_text(
            "from jaxlint.rules.base import Rule\n\n\n"
            f"class R(Rule):\n    code = {code!r}\n    name = {name.replace('_', '-')!r}\n    status = {status!r}\n"
        )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        with pytest.raises(RegistryError, match="JAX990: status must be one of stable, preview, not 'beta'"):
            discover_rules("fakerules")
    finally:
        for m in [m for m in sys.modules if m == "fakerules" or m.startswith("fakerules.")]:
            del sys.modules[m]



def test_the_measured_precision_is_a_count_of_reviewed_findings_of_known_rules():
    from jaxlint.rules.measured import CORPUS, FLAGGED_NEGATIVES, MEASURED, NEGATIVES, below_bar, describe

    assert CORPUS and MEASURED
    assert set(MEASURED) | set(FLAGGED_NEGATIVES) <= set(RULES_BY_CODE)
    assert all(0 < n <= NEGATIVES for n in FLAGGED_NEGATIVES.values())
    for code, (right, reviewed) in MEASURED.items():
        assert 0 <= right <= reviewed > 0
        assert below_bar(code) == (right / reviewed < 0.9 or code in FLAGGED_NEGATIVES)
        assert describe(code) in RULES_BY_CODE[code].explain()


def test_a_rule_is_in_preview_when_its_measured_precision_is_below_the_bar():
    from jaxlint.rules.measured import MEASURED, below_bar

    assert any(below_bar(code) for code in MEASURED)
    for code in MEASURED:
        if below_bar(code):
            assert RULES_BY_CODE[code].status == "preview", code
    # A rule at or above the bar keeps the status it declares (stable, unless it is new).
    assert RULES_BY_CODE["JAX101"].status == "stable" and not below_bar("JAX101")
    # A rule that flagged a fixed file of the reports is in preview, however right it was on
    # the world corpus.
    from jaxlint.rules.measured import FLAGGED_NEGATIVES

    for code in FLAGGED_NEGATIVES:
        assert below_bar(code) and RULES_BY_CODE[code].status == "preview", code


def _first_rule_below_the_bar():
    """The first rule the measured table puts in preview: the test follows the table."""
    from jaxlint.rules.measured import MEASURED, below_bar

    return RULES_BY_CODE[next(code for code in sorted(MEASURED) if below_bar(code))]


def test_a_plain_run_leaves_out_a_rule_below_the_bar_and_preview_reports_it(tmp_path):
    from clirun import jaxlint
    from markers import expected_markers

    rule = _first_rule_below_the_bar()
    text = textwrap.dedent(rule.bad[0]).lstrip("\n")
    (tmp_path / "example.py").write_text(text, encoding="utf-8")
    marked = sorted(line for line, code in expected_markers(text)[0] if code == rule.code)
    assert marked, f"{rule.code}'s first bad example marks where it fires"

    def lines_of(*args):
        p = jaxlint(["--no-cache", "--format", "json", *args, "example.py"], cwd=str(tmp_path))
        assert p.returncode in (0, 1), p.stderr.decode()
        return sorted(f["line"] for f in json.loads(p.stdout) if f["code"] == rule.code)

    assert lines_of() == []
    assert lines_of("--preview") == marked
    # Selected by its code, it still needs preview (as in ruff).
    assert lines_of("--select", rule.code) == []
    assert lines_of("--select", rule.code, "--preview") == marked
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\npreview = true\n", encoding="utf-8")
    assert lines_of() == marked


def test_selecting_a_preview_rule_by_its_code_without_preview_says_it_has_no_effect(tmp_path):
    from clirun import jaxlint

    code = _first_rule_below_the_bar().code
    (tmp_path / "m.py").write_text("import jax\n", encoding="utf-8")
    warning = f"jaxlint: warning: selection `{code}` has no effect because preview is not enabled (use --preview)"

    def stderr_lines(*args, config=None):
        if config is not None:
            (tmp_path / "pyproject.toml").write_text(f"[tool.jaxlint]\n{config}\n", encoding="utf-8")
        p = jaxlint(["--no-cache", *args, "m.py"], cwd=str(tmp_path))
        assert p.returncode == 0, p.stderr.decode()
        return p.stderr.decode().splitlines()

    assert stderr_lines("--select", code) == [warning, "All checks passed (1 file checked)."]
    assert stderr_lines("--extend-select", f"{code},JAX101", "-q") == [warning]
    assert stderr_lines("--select", code, "--preview", "-q") == []
    # A prefix that also selects stable rules does something: no warning.
    assert stderr_lines("--select", code[:-1], "-q") == []
    # An ignore of a preview rule is what a plain run does anyway: no warning (as in ruff).
    assert stderr_lines("--ignore", code, "-q") == []
    # The configuration file's selection is checked too, once whatever the number of files.
    (tmp_path / "n.py").write_text("import jax\n", encoding="utf-8")
    assert stderr_lines("-q", "n.py", config=f'select = ["{code}"]') == [warning]
    assert stderr_lines("-q", "n.py", config=f'select = ["{code}"]\npreview = true') == []
